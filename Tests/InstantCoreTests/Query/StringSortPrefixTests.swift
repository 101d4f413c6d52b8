import Testing
@testable import InstantCore

/// String order compares 8-byte prefixes first; wherever two prefixes differ, they must order the
/// strings as JavaScript does (UTF-16 units), or the sort would differ from the reference's.
@Suite("String sort prefixes") struct StringSortPrefixTests {
  @Test("Differing prefixes order strings as UTF-16 comparison does") func prefixesAgree() {
    // Shared 8-byte stems, NUL, multi-byte letters, U+E000–U+FFFF and supplementary characters
    // (whose UTF-8 order is not their UTF-16 order).
    let pieces = ["a", "b", "The ", "Them", "\u{0}", "é", "ß", "\u{E000}", "\u{FF5A}", "😀", "z", "abcdefgh"]
    var state: UInt64 = 0x5EED
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % n
    }
    func word() -> String { (0..<next(5)).map { _ in pieces[next(pieces.count)] }.joined() }
    var compared = 0
    for _ in 0..<20_000 {
      var (a, b) = (word(), word())
      guard let x = a.withUTF8(StringSortKeys.prefix), let y = b.withUTF8(StringSortKeys.prefix), x != y else {
        continue
      }
      let (u, v) = (Array(a.utf16), Array(b.utf16))
      let expected = u == v ? 0 : (u.lexicographicallyPrecedes(v) ? -1 : 1)
      #expect((x < y ? -1 : 1) == expected, "\(Array(a.utf16)) vs \(Array(b.utf16))")
      compared += 1
    }
    #expect(compared > 5_000, "too few pairs had distinct prefixes: \(compared)")
  }
}
