import Foundation
@testable import InstantBackup
import InstantCore
import Testing

/// jsonb text of values and `Instant.toString` of dates, as the reference's backups hold them.
@Suite struct FormattingTests {
  @Test(arguments: [
    (3, "3"), (1.5, "1.5"), (-0.0, "0"), (1e21, "1000000000000000000000"), (1e-7, "0.0000001"),
    (123456.789, "123456.789"), (-2.5e-3, "-0.0025"), (9007199254740992, "9007199254740992"), (1.2345678901234568e18, "1234567890123456800"), (1.5e300, "15" + String(repeating: "0", count: 299)),
  ] as [(Double, String)])
  func numbersArePlainDecimals(_ value: Double, _ text: String) {
    #expect(JSONBText.text(.number(value)) == text)
  }

  @Test func objectsAndArraysUseJSONBSpacingAndKeyOrder() {
    let value: JSON = ["tags": ["x", "y"], "draft": false, "n": nil, "bb": ["z": 1, "a": 2]]
    #expect(JSONBText.text(value) == #"{"n": null, "bb": {"a": 2, "z": 1}, "tags": ["x", "y"], "draft": false}"#)
    #expect(JSONBText.text([]) == "[]")
    #expect(JSONBText.text([:]) == "{}")
  }

  @Test func stringsEscapeOnlyWhatJSONNeeds() {
    #expect(JSONBText.text("é\u{1F680}/<>") == "\"é\u{1F680}/<>\"")
    #expect(JSONBText.text("a\"b\\c\n\u{01}\u{7F}") == #""a\"b\\c\n\u0001\#u{7F}""#)
  }

  @Test(arguments: [
    (0.0, "1970-01-01T00:00:00Z"), (1_787_245_391.402118, "2026-08-20T17:03:11.402118Z"),
    (1_787_245_391.5, "2026-08-20T17:03:11.500Z"), (951_782_400, "2000-02-29T00:00:00Z"), (-1.25, "1969-12-31T23:59:58.750Z"),
  ] as [(Double, String)])
  func backupAtIsJavaInstantText(_ seconds: Double, _ text: String) {
    #expect(ISOInstant.string(Date(timeIntervalSince1970: seconds)) == text)
  }
}
