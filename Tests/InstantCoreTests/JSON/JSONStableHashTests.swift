import Testing
@testable import InstantCore

/// `stableHash` is the reference client's `weakHash` (expected values computed with node from
/// `client/packages/core/src/utils/weakHash.ts`).
@Suite("JSON stableHash") struct JSONStableHashTests {
  @Test("equals the JavaScript weakHash", arguments: [
    (#"{"users":{}}"#, "25ec8fc3847e9e80"),
    (#"{"users":{"$":{"where":{"handle":"joe"}},"bookshelves":{}}}"#, "ba45b7a24afbbb88"),
    (#"{"b":[1,"x",null,1e21,0.1],"a":{"d":true,"c":-0.5}}"#, "00caff418ac97ad2"),
    (#""héllo 😀""#, "5e582d4d853cc47c"),
    (#"{"ｚ":1,"😀":2,"é":3,"Z":4,"a":5}"#, "edddc37ff5d33d6d"),
  ])
  func matchesWeakHash(_ text: String, _ hash: String) throws {
    #expect(try JSON.parse(text).stableHash == hash)
  }

  @Test("reordered objects hash the same") func orderIndependent() throws {
    let a = try JSON.parse(#"{"users":{"bookshelves":{},"$":{"where":{"handle":"joe","id":1}}}}"#)
    let b = try JSON.parse(#"{"users":{"$":{"where":{"id":1,"handle":"joe"}},"bookshelves":{}}}"#)
    #expect(a.stableHash == b.stableHash)
    #expect(a.canonicalString == b.canonicalString)
    #expect(a.hashValue == b.hashValue)
  }

  @Test("different values hash differently") func differs() throws {
    #expect(try JSON.parse("[1,2]").stableHash != JSON.parse("[2,1]").stableHash)
    #expect(try JSON.parse(#"{"a":1}"#).stableHash != JSON.parse(#"{"a":"1"}"#).stableHash)
    #expect(try JSON.parse(#"{"a":1}"#).stableHash.count == 16)
  }
}
