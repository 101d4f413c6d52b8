import Foundation
import Testing

@testable import InstantLocal

/// An app's magic codes (``MagicCodes``) at given instants, no clock: expiry, several codes at
/// once, single use, and the hourly limits, as the reference server keeps them.
@Suite("Magic codes")
struct MagicCodesTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("A code is valid until its expiry, then refused as expired; a wrong one is not found")
  func expiry() throws {
    var codes = MagicCodes(limits: .init(expiry: .seconds(600), perHour: 100))
    let code = try codes.issue(for: "a@example.com", now: start, limited: true)
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    #expect(throws: Never.self) { try codes.check(code, for: "a@example.com", now: start + 600) }
    #expect(throws: MagicCodes.Refusal.expired) { try codes.check(code, for: "a@example.com", now: start + 601) }
    let wrong = code == "000000" ? "111111" : "000000"
    #expect(throws: MagicCodes.Refusal.notFound) { try codes.check(wrong, for: "a@example.com", now: start) }
    #expect(throws: MagicCodes.Refusal.notFound) { try codes.check(code, for: "b@example.com", now: start) }
  }

  @Test("Several codes are valid at once; each is used once")
  func severalOnce() throws {
    var codes = MagicCodes()
    let first = try codes.issue(for: "a@example.com", now: start, limited: true)
    let second = try codes.issue(for: "a@example.com", now: start + 1, limited: false)
    #expect(codes.outstanding(for: "a@example.com") == (first == second ? 1 : 2))
    try codes.check(first, for: "a@example.com", now: start + 2)
    codes.use(first, for: "a@example.com")
    #expect(throws: MagicCodes.Refusal.notFound) { try codes.check(first, for: "a@example.com", now: start + 3) }
    if first != second { #expect(throws: Never.self) { try codes.check(second, for: "a@example.com", now: start + 3) } }
  }

  @Test("Sends and tries are counted per email per hour, and the hour starts over; the admin's codes are not counted")
  func hourly() throws {
    var codes = MagicCodes(limits: .init(perHour: 2))
    _ = try codes.issue(for: "a@example.com", now: start, limited: true)
    _ = try codes.issue(for: "a@example.com", now: start + 10, limited: true)
    #expect(throws: MagicCodes.Refusal.rateLimited) { _ = try codes.issue(for: "a@example.com", now: start + 20, limited: true) }
    #expect(throws: Never.self) { _ = try codes.issue(for: "a@example.com", now: start + 20, limited: false) }
    #expect(throws: Never.self) { _ = try codes.issue(for: "b@example.com", now: start + 20, limited: true) }
    #expect(throws: Never.self) { _ = try codes.issue(for: "a@example.com", now: start + 3600, limited: true) }

    let code = try codes.issue(for: "c@example.com", now: start, limited: false)
    #expect(throws: MagicCodes.Refusal.notFound) { try codes.check("x", for: "c@example.com", now: start) }
    #expect(throws: MagicCodes.Refusal.notFound) { try codes.check("y", for: "c@example.com", now: start) }
    #expect(throws: MagicCodes.Refusal.rateLimited) { try codes.check(code, for: "c@example.com", now: start + 1) }
    #expect(throws: Never.self) { try codes.check(code, for: "c@example.com", now: start + 3601) }
  }
}
