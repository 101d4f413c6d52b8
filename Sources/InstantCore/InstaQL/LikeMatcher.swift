#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Matches SQL LIKE patterns the way the reference client's regex does: over UTF-16 code units,
/// `%` any run (newlines included), `_` exactly one unit, everything else literal, anchored at
/// both ends. Case-insensitive matching uses JavaScript's non-Unicode `i` canonicalisation
/// (upper-casing single code units).
struct LikeMatcher: Sendable {
  enum Token: Sendable, Equatable {
    case unit(UInt16)
    case any
    case run
  }

  let tokens: [Token]
  let caseSensitive: Bool
  /// Without `_`: the literals between `%`s (the first empty when the pattern starts with `%`, the
  /// last when it ends with one). Such a pattern matches when the first literal is a prefix, the
  /// last a suffix, and the others occur in order in between, each at its leftmost place.
  let literals: [[UInt16]]?
  /// The same literals as bytes, when all of them are ASCII: then they can be matched against the
  /// text's UTF-8 in place, whatever the text holds. An ASCII unit is one byte in UTF-8, and every
  /// byte of a non-ASCII character is ≥ 0x80 (and no non-ASCII unit canonicalises to ASCII), so
  /// prefixes, suffixes and occurrences of ASCII literals are the same in UTF-8 as in UTF-16.
  let asciiLiterals: [[UInt8]]?

  init(pattern: String, caseSensitive: Bool) {
    self.caseSensitive = caseSensitive
    var tokens: [Token] = []
    for unit in pattern.utf16 {
      switch unit {
      case 0x25:
        if tokens.last != .run { tokens.append(.run) }
      case 0x5F: tokens.append(.any)
      default: tokens.append(.unit(caseSensitive ? unit : LikeMatcher.canonicalize(unit)))
      }
    }
    self.tokens = tokens
    if tokens.contains(.any) {
      literals = nil
    } else {
      var parts: [[UInt16]] = [[]]
      for token in tokens {
        if case let .unit(u) = token { parts[parts.count - 1].append(u) } else { parts.append([]) }
      }
      literals = parts
    }
    if let literals, literals.allSatisfy({ $0.allSatisfy { $0 < 0x80 } }) {
      asciiLiterals = literals.map { $0.map { UInt8($0) } }
    } else {
      asciiLiterals = nil
    }
  }

  func matches(_ s: String) -> Bool {
    var s = s
    if let asciiLiterals {
      // Two calls, so each inlined copy has `fold` constant (one runtime `fold` cost the
      // `$like` shape 2% more instructions).
      return s.withUTF8 { bytes in
        caseSensitive
          ? Self.matchLiterals(asciiLiterals, in: bytes, fold: false)
          : Self.matchLiterals(asciiLiterals, in: bytes, fold: true)
      }
    }
    // ASCII text (the common case): its UTF-16 units are its bytes, read in place.
    let ascii = s.withUTF8 { bytes -> Bool? in
      for byte in bytes where byte >= 0x80 { return nil }
      if caseSensitive { return match(count: bytes.count) { UInt16(bytes[$0]) } }
      return match(count: bytes.count) { i in
        let byte = bytes[i]
        return UInt16(byte >= 0x61 && byte <= 0x7A ? byte - 32 : byte)
      }
    }
    if let ascii { return ascii }
    var units = Array(s.utf16)
    if !caseSensitive { units = units.map(LikeMatcher.canonicalize) }
    return match(count: units.count) { units[$0] }
  }

  /// Greedy match with backtracking to the last run, over `count` units read by `unit`.
  @inline(__always)
  private func match(count: Int, _ unit: (Int) -> UInt16) -> Bool {
    if let literals { return matchLiterals(literals, count: count, unit) }
    var p = 0
    var i = 0
    var starP = -1
    var starI = 0
    while i < count {
      if p < tokens.count {
        switch tokens[p] {
        case .run:
          starP = p
          starI = i
          p += 1
          continue
        case .any:
          p += 1
          i += 1
          continue
        case let .unit(u) where u == unit(i):
          p += 1
          i += 1
          continue
        default: break
        }
      }
      if starP >= 0 {
        p = starP + 1
        starI += 1
        i = starI
        continue
      }
      return false
    }
    while p < tokens.count, tokens[p] == .run { p += 1 }
    return p == tokens.count
  }

  @inline(__always)
  private func matchLiterals(_ parts: [[UInt16]], count: Int, _ unit: (Int) -> UInt16) -> Bool {
    Self.matchLiterals(parts, count: count, unit) { lead, from, last in
      var i = from
      while i <= last, unit(i) != lead { i += 1 }
      return i
    }
  }

  /// The literal-only match over UTF-8 bytes, `fold` upper-casing ASCII letters of the text (the
  /// literals are upper-cased already). A literal's first byte is found with `memchr` where the
  /// case does not matter.
  @inline(__always)
  private static func matchLiterals(_ parts: [[UInt8]], in text: UnsafeBufferPointer<UInt8>, fold: Bool) -> Bool {
    guard let base = text.baseAddress else { return parts.allSatisfy(\.isEmpty) }
    @inline(__always) func byte(_ i: Int) -> UInt8 {
      let b = base[i]
      return fold && b >= 0x61 && b <= 0x7A ? b - 32 : b
    }
    return matchLiterals(parts, count: text.count, byte) { lead, from, last in
      if fold, lead >= 0x41 && lead <= 0x5A {
        var i = from
        while i <= last, byte(i) != lead { i += 1 }
        return i
      }
      guard let hit = memchr(base + from, Int32(lead), last - from + 1) else { return last + 1 }
      return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// Whether `count` units read by `unit` match `parts`, the literals between `%`s: the first a
  /// prefix, the last a suffix, the others in order in between, each at its leftmost place.
  /// `next(lead, from, last)` is the first position in `from...last` holding `lead`, or `last + 1`.
  @inline(__always)
  private static func matchLiterals<Unit: FixedWidthInteger>(
    _ parts: [[Unit]], count: Int, _ unit: (Int) -> Unit, next: (Unit, Int, Int) -> Int
  ) -> Bool {
    func occurs(_ part: [Unit], at i: Int) -> Bool {
      part.withUnsafeBufferPointer { p in
        for k in 0..<p.count where unit(i + k) != p[k] { return false }
        return true
      }
    }
    // `parts` has one more element than there are runs: with no run, the pattern is one literal.
    if parts.count == 1 { return parts[0].count == count && occurs(parts[0], at: 0) }
    let first = parts[0]
    let last = parts[parts.count - 1]
    guard first.count + last.count <= count, occurs(first, at: 0), occurs(last, at: count - last.count) else {
      return false
    }
    var i = first.count
    let end = count - last.count
    for part in parts[1..<(parts.count - 1)] where !part.isEmpty {
      var found = false
      while i + part.count <= end {
        i = next(part[0], i, end - part.count)
        guard i + part.count <= end else { break }
        if occurs(part, at: i) {
          found = true
          break
        }
        i += 1
      }
      if !found { return false }
      i += part.count
    }
    return true
  }

  static func canonicalize(_ unit: UInt16) -> UInt16 {
    if unit < 128 {
      if unit >= 0x61 && unit <= 0x7A { return unit - 32 }
      return unit
    }
    if (0xD800...0xDFFF).contains(unit) { return unit }
    guard let scalar = Unicode.Scalar(UInt32(unit)) else { return unit }
    let upper = Array(String(Character(scalar)).uppercased().utf16)
    guard upper.count == 1 else { return unit }
    if upper[0] < 128 { return unit }
    return upper[0]
  }
}
