/// The parsed form of a regular expression for `matches`: the subset of RE2 syntax that a
/// backtracking-free matcher can run in time linear in the text (RE2 itself has no
/// backreferences or lookaround either).
///
/// Supported: literals and escapes, `.`, classes `[a-z]`/`[^…]` with `\d \w \s` and POSIX
/// `[:alpha:]` forms, `^ $ \A \z \b \B`, groups `( )`, `(?: )`, `(?P<name> )`, flags `(?i)`,
/// `(?m)`, `(?s)`, `(?U)` (alone or scoped), alternation, `* + ? {n} {n,} {n,m}` (greedy or lazy).
/// Not supported (a clear error): Unicode classes `\p{…}`, `\Q…\E`, octal escapes.
indirect enum RegexNode {
  case empty
  case literal(Unicode.Scalar, foldCase: Bool)
  case any(matchesNewline: Bool)
  case set(RegexCharSet)
  case concat([RegexNode])
  case alternate([RegexNode])
  case repetition(RegexNode, min: Int, max: Int?)
  case assertion(RegexAssertion)
}

enum RegexAssertion {
  case beginText, endText, beginLine, endLine, wordBoundary, notWordBoundary
}

/// A set of code points: ranges, possibly negated, possibly case-insensitive.
struct RegexCharSet {
  var ranges: [ClosedRange<UInt32>] = []
  var negated = false
  var foldCase = false

  func contains(_ scalar: Unicode.Scalar) -> Bool {
    var found = ranges.contains { $0.contains(scalar.value) }
    if !found && foldCase {
      found = RegexCharSet.caseVariants(scalar).contains { v in ranges.contains { $0.contains(v.value) } }
    }
    return found != negated
  }

  /// The scalar's simple lower- and upper-case forms (those that are single scalars).
  static func caseVariants(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    var variants: [Unicode.Scalar] = []
    for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
      let scalars = mapping.unicodeScalars
      if scalars.count == 1, let only = scalars.first, only != scalar { variants.append(only) }
    }
    return variants
  }

  static let digit: [ClosedRange<UInt32>] = [48...57]
  static let word: [ClosedRange<UInt32>] = [48...57, 65...90, 95...95, 97...122]
  static let space: [ClosedRange<UInt32>] = [9...10, 12...13, 32...32]

  static let posix: [String: [ClosedRange<UInt32>]] = [
    "alnum": [48...57, 65...90, 97...122], "alpha": [65...90, 97...122], "ascii": [0...127],
    "blank": [9...9, 32...32], "cntrl": [0...31, 127...127], "digit": digit,
    "graph": [33...126], "lower": [97...122], "print": [32...126],
    "punct": [33...47, 58...64, 91...96, 123...126], "space": [9...13, 32...32],
    "upper": [65...90], "word": word, "xdigit": [48...57, 65...70, 97...102],
  ]

  /// The complement of sorted ranges, within all code points.
  static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
    var out: [ClosedRange<UInt32>] = []
    var next: UInt32 = 0
    for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
      next = max(next, r.upperBound &+ 1)
      if r.upperBound == UInt32.max { return out }
    }
    if next <= 0x10FFFF { out.append(next...0x10FFFF) }
    return out
  }
}

struct RegexError: Error {
  let message: String
}
