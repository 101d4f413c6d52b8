import TestSupport
import Testing
@testable import InstantCore

/// ``LikeMatcher`` reads ASCII text in place and everything else as UTF-16 units; both must agree
/// with a plain recursive reading of LIKE over UTF-16 units.
@Suite("LIKE matcher") struct LikeMatcherTests {
  static func reference(_ pattern: [UInt16], _ text: [UInt16], caseSensitive: Bool) -> Bool {
    func fold(_ unit: UInt16) -> UInt16 { caseSensitive ? unit : LikeMatcher.canonicalize(unit) }
    func go(_ p: Int, _ i: Int) -> Bool {
      if p == pattern.count { return i == text.count }
      switch pattern[p] {
      case 0x25: return (i...text.count).contains { go(p + 1, $0) }
      case 0x5F: return i < text.count && go(p + 1, i + 1)
      default: return i < text.count && fold(pattern[p]) == fold(text[i]) && go(p + 1, i + 1)
      }
    }
    return go(0, 0)
  }

  @Test("ASCII and non-ASCII text, case-sensitive or not, match as the reference reading does") func agreesWithReference() {
    // Literal-only ASCII patterns are matched over UTF-8 bytes, the rest over UTF-16 units: both
    // kinds of pattern, over ASCII and non-ASCII text, with repeated letters so that occurrences
    // are searched past false starts.
    let alphabet: [String] = ["a", "A", "b", "%", "_", "é", "É", "ß", "😀", "\n", "z", "%", "a", "ſ", "S"]
    var seed: UInt64 = 7
    func pick() -> String {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return alphabet[Int(seed >> 33) % alphabet.count]
    }
    var rng = SeededGenerator(seed: 11)
    var checked = 0
    for _ in 0..<3000 {
      let pattern = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pick() }.joined()
      let text = (0..<Int.random(in: 0...10, using: &rng)).map { _ in pick() }.joined()
      for caseSensitive in [true, false] {
        let matcher = LikeMatcher(pattern: pattern, caseSensitive: caseSensitive)
        let want = Self.reference(Array(pattern.utf16), Array(text.utf16), caseSensitive: caseSensitive)
        #expect(matcher.matches(text) == want, "\(pattern) ~ \(text) caseSensitive=\(caseSensitive)")
        checked += 1
      }
    }
    #expect(checked == 6000)
  }
}
