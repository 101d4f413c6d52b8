import CEL
import Testing

/// Timestamps and durations: RFC 3339 and Go-style duration text, arithmetic, accessors.
@Suite("Timestamps and durations")
struct TimeTests {
  static let cases: [Case] = [
    Case("timestamp('2027-01-01T00:00:00Z') > timestamp('2026-12-31T23:59:59.999Z')", true),
    Case("timestamp('2027-01-01T09:30:00+02:00') == timestamp('2027-01-01T07:30:00Z')", true),
    Case("string(timestamp('2027-01-01T09:30:00.5-01:30'))", "2027-01-01T11:00:00.500Z"),
    Case("string(timestamp('1970-01-01T00:00:00.000001Z'))", "1970-01-01T00:00:00.000001Z"),
    Case("int(timestamp('1970-01-02T00:00:00Z'))", 86400), Case("timestamp(86400) == timestamp('1970-01-02T00:00:00Z')", true),
    Case("timestamp('2027-02-29T00:00:00Z')", .error(.invalidArgument)), Case("timestamp('2028-02-29T00:00:00Z') != null", true),
    Case("timestamp('2027-01-01')", .error(.invalidArgument)), Case("timestamp('2027-01-01T24:00:00Z')", .error(.invalidArgument)),
    Case("timestamp('0000-12-31T23:59:59Z')", .error(.overflow)), Case("timestamp(1)", .value(.timestamp(CELTimestamp(seconds: 1)!))),
    Case("timestamp('9999-12-31T23:59:59Z') + duration('1s')", .error(.overflow)),
    Case("timestamp('2027-01-01T00:00:00Z') - timestamp('2026-12-31T00:00:00Z') == duration('24h')", true),
    Case("timestamp('2027-01-01T00:00:00Z') + duration('1h30m') == timestamp('2027-01-01T01:30:00Z')", true),
    Case("duration('1h') + timestamp('2027-01-01T00:00:00Z') == timestamp('2027-01-01T01:00:00Z')", true),
    Case("timestamp('2027-01-01T00:00:00Z') - duration('1ns') < timestamp('2027-01-01T00:00:00Z')", true),
    Case("duration('1h30m') == duration('90m')", true), Case("duration('-1.5h') == duration('-90m')", true),
    Case("duration('0') == duration('0s')", true), Case("duration('1.5s') == duration('1500ms')", true),
    Case("duration('0.3s') == duration('300ms')", true), Case("duration('1us') == duration('1000ns')", true),
    Case("duration('1\u{b5}s') == duration('1us')", true), Case("string(duration('1m1ms'))", "60.001s"),
    Case("string(duration('-1.5s'))", "-1.500s"), Case("string(duration('0'))", "0s"),
    Case("duration('1d')", .error(.invalidArgument)), Case("duration('')", .error(.invalidArgument)),
    Case("duration('1')", .error(.invalidArgument)), Case("duration('h')", .error(.invalidArgument)),
    Case("duration('3000000h')", .error(.overflow)), Case("duration('2562047h') + duration('2562047h')", .error(.overflow)),
    Case("duration('1h') < duration('61m')", true), Case("duration('1h') - duration('2h') == duration('-1h')", true),
    // Accessors, in UTC unless a zone is given; months and days of week count from zero.
    Case("timestamp('2027-03-14T15:09:26.535Z').getFullYear()", 2027),
    Case("timestamp('2027-03-14T15:09:26.535Z').getMonth()", 2),
    Case("timestamp('2027-03-14T15:09:26.535Z').getDate()", 14),
    Case("timestamp('2027-03-14T15:09:26.535Z').getDayOfMonth()", 13),
    Case("timestamp('2027-03-14T15:09:26.535Z').getDayOfWeek()", 0),
    Case("timestamp('2027-03-14T15:09:26.535Z').getDayOfYear()", 72),
    Case("timestamp('2027-03-14T15:09:26.535Z').getHours()", 15),
    Case("timestamp('2027-03-14T15:09:26.535Z').getMinutes()", 9),
    Case("timestamp('2027-03-14T15:09:26.535Z').getSeconds()", 26),
    Case("timestamp('2027-03-14T15:09:26.535Z').getMilliseconds()", 535),
    Case("timestamp('1969-12-31T23:59:59Z').getFullYear()", 1969),
    Case("timestamp('1969-12-31T23:59:59Z').getDayOfWeek()", 3),
    Case("timestamp('0001-01-01T00:00:00Z').getDayOfWeek()", 1),
    Case("timestamp('2027-03-14T23:30:00Z').getDate('+01:00')", 15),
    Case("timestamp('2027-03-14T00:30:00Z').getHours('-02:30')", 22),
    Case("timestamp('2027-03-14T00:30:00Z').getHours('UTC')", 0),
    Case("timestamp('2027-03-14T00:30:00Z').getHours('Europe/Paris')", .error(.unsupported)),
    Case("timestamp('2027-03-14T00:30:00Z').getHours(1)", .error(.noSuchOverload)),
    Case("duration('3h25m').getHours()", 3), Case("duration('3h25m').getMinutes()", 205),
    Case("duration('1.234s').getSeconds()", 1), Case("duration('1.234s').getMilliseconds()", 234),
    Case("duration('1h').getDate()", .error(.noSuchOverload)), Case("'x'.getHours()", .error(.noSuchOverload)),
  ]

  @Test(arguments: cases) func time(_ c: Case) { check(c) }

  @Test("The civil calendar round-trips every day across the timestamp range's edges and leap years")
  func calendarRoundTrip() throws {
    for text in [
      "0001-01-01T00:00:00Z", "1600-02-29T12:00:00Z", "1900-03-01T00:00:00Z", "1970-01-01T00:00:00Z",
      "2000-02-29T23:59:59.999999999Z", "2024-12-31T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
    ] {
      let timestamp = try #require(CELTimestamp(rfc3339: text))
      #expect(timestamp.description == text)
    }
    #expect(CELTimestamp(seconds: 253_402_300_800) == nil)
    #expect(CELTimestamp(seconds: 0, nanos: 1_000_000_000) == nil)
    #expect(CELDuration(parsing: "1h30m")?.nanoseconds == 5_400_000_000_000)
  }
}
