import Foundation
import InstantSchemaFixture
import SharingInstant
import Testing

/// `i.date()` values as generated entities read and write them: every form the server accepts
/// decodes to the time JavaScript gives it, and dates are written as the TypeScript client
/// writes them.
@Suite struct DateCodingTests {
  /// A date string and `new Date(string).getTime()` as V8 computes it.
  struct DateString: Decodable, Sendable, CustomTestStringConvertible {
    var string: String
    var milliseconds: Double
    var testDescription: String { string }
  }

  /// Every string form InstantCore's `JSDate.parse` (the server's check for `date` attributes)
  /// reads, from `Schemas/dates/v8-date-strings.json`, whose times come from Node 20 under
  /// `TZ=UTC`: `new Date(string).getTime()` for each string.
  static let strings = (try? TestSupport.fixture([DateString].self, "dates/v8-date-strings.json")) ?? []

  @Test func theDateStringsLoad() throws {
    #expect(try TestSupport.fixture([DateString].self, "dates/v8-date-strings.json").count >= 30)
  }

  private func decodePerson(date: JSON) throws -> Person {
    let row: JSON = ["id": "p1", "name": "Ada", "date": date]
    return try JSONDecoder().decode(Person.self, from: Data(row.serialized().utf8))
  }

  @Test("decodes every string form the server accepts", arguments: strings)
  func decodesString(_ example: DateString) throws {
    let expected = Date(timeIntervalSince1970: example.milliseconds / 1000)
    #expect(try decodePerson(date: .string(example.string)).date == expected)
    #expect(InstantDateCoding.date(from: example.string) == expected)
  }

  /// The hosted server also unquotes a JSON-quoted date string, which V8 reads only sometimes.
  @Test func decodesAJSONQuotedDateString() throws {
    #expect(try decodePerson(date: #""2021-01-07T18:51:23.742Z""#).date == Date(timeIntervalSince1970: 1_610_045_483.742))
    #expect(try decodePerson(date: #""2021""#).date == Date(timeIntervalSince1970: 1_609_459_200))
  }

  @Test("decodes milliseconds since 1970", arguments: [0, 1_700_000_000_000, -86_400_000, 1_700_000_000_123.9, 8.64e15])
  func decodesNumber(_ milliseconds: Double) throws {
    let expected = Date(timeIntervalSince1970: milliseconds.rounded(.towardZero) / 1000)
    #expect(try decodePerson(date: .number(milliseconds)).date == expected)
  }

  @Test("refuses what the server refuses, naming the value", arguments: ["next tuesday", "1e12", "20000101", "", "2021-13-01"])
  func refusesUnreadableStrings(_ string: String) {
    #expect(InstantDateCoding.date(from: string) == nil)
    #expect {
      try decodePerson(date: .string(string))
    } throws: { error in
      guard case .dataCorrupted(let context)? = error as? DecodingError else { return false }
      return context.debugDescription.contains(JSON.string(string).serialized())
    }
  }

  @Test("refuses values that are neither numbers nor strings", arguments: [JSON.bool(true), [1], ["t": 1]])
  func refusesOtherValues(_ value: JSON) {
    #expect(throws: DecodingError.self) { try decodePerson(date: value) }
  }

  @Test("writes Date.prototype.toISOString()", arguments: [
    (1_700_000_000_000, "2023-11-14T22:13:20.000Z"),
    (1_610_045_483_742, "2021-01-07T18:51:23.742Z"),
    (0, "1970-01-01T00:00:00.000Z"),
    (-1, "1969-12-31T23:59:59.999Z"),
    (-62_198_755_200_000, "-000001-01-01T00:00:00.000Z"),
    (3_093_496_444_800_000, "+099999-01-01T00:00:00.000Z"),
    (951_782_400_000, "2000-02-29T00:00:00.000Z"),
  ])
  func writesISOStrings(_ milliseconds: Double, _ expected: String) throws {
    let date = Date(timeIntervalSince1970: milliseconds / 1000)
    #expect(InstantDateCoding.string(from: date) == expected)
    #expect(date.instantValue == .string(expected))
    #expect(try decodePerson(date: .string(expected)).date == date)
  }

  @Test func roundsToTheMillisecondAsJavaScriptHoldsIt() {
    let date = Date(timeIntervalSince1970: 1_700_000_000.123_4)
    #expect(InstantDateCoding.milliseconds(from: date) == 1_700_000_000_123)
    #expect(InstantDateCoding.string(from: date) == "2023-11-14T22:13:20.123Z")
  }

  @Test func encodedEntitiesDecodeToTheSameDate() throws {
    let person = Person(id: "p1", name: "Ada", date: Date(timeIntervalSince1970: 1_610_045_483.742))
    let decoded = try JSONDecoder().decode(Person.self, from: JSONEncoder().encode(person))
    #expect(decoded == person)
  }
}
