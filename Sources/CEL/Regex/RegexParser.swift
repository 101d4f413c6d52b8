/// Parses a pattern into a ``RegexNode``. Group nesting is bounded, so a hostile pattern cannot
/// exhaust the stack.
struct RegexParser {
  private struct Flags {
    var foldCase = false
    var multiLine = false
    var dotAll = false
  }

  private let pattern: [Unicode.Scalar]
  private var position = 0
  private var depth = 0
  private static let maxDepth = 100
  private static let maxRepeat = 1000

  private init(_ pattern: String) { self.pattern = Array(pattern.unicodeScalars) }

  static func parse(_ pattern: String) throws(RegexError) -> RegexNode {
    var parser = RegexParser(pattern)
    var flags = Flags()
    let node = try parser.alternation(&flags)
    if parser.position < parser.pattern.count {
      throw RegexError(message: "unexpected ')'")
    }
    return node
  }

  private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
    position + ahead < pattern.count ? pattern[position + ahead] : nil
  }

  private mutating func alternation(_ flags: inout Flags) throws(RegexError) -> RegexNode {
    var branches = [try concatenation(&flags)]
    while peek() == "|" {
      position += 1
      branches.append(try concatenation(&flags))
    }
    return branches.count == 1 ? branches[0] : .alternate(branches)
  }

  private mutating func concatenation(_ flags: inout Flags) throws(RegexError) -> RegexNode {
    var items: [RegexNode] = []
    while let c = peek(), c != "|", c != ")" {
      // `(?i)` changes the flags for the rest of the enclosing group.
      if c == "(", peek(1) == "?", let newFlags = try flagGroup(flags) {
        flags = newFlags
        continue
      }
      let atom = try atom(flags)
      items.append(try quantified(atom))
    }
    return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concat(items))
  }

  /// Parses `(?flags)` at the current position and returns the new flags; nil (consuming
  /// nothing) when the group is not a bare flag group.
  private mutating func flagGroup(_ flags: Flags) throws(RegexError) -> Flags? {
    var i = position + 2
    var newFlags = flags
    var negate = false
    while i < pattern.count {
      switch pattern[i] {
      case "i": newFlags.foldCase = !negate
      case "m": newFlags.multiLine = !negate
      case "s": newFlags.dotAll = !negate
      case "U": break  // ungreedy: irrelevant when only asking whether a match exists
      case "-": negate = true
      case ")":
        guard i > position + 2 else { throw RegexError(message: "missing flags in '(?)'") }
        position = i + 1
        return newFlags
      default: return nil
      }
      i += 1
    }
    throw RegexError(message: "missing ')'")
  }

  private mutating func quantified(_ atom: RegexNode) throws(RegexError) -> RegexNode {
    var node = atom
    var quantifiers = 0
    while let c = peek() {
      var range: (Int, Int?)?
      switch c {
      case "*": range = (0, nil); position += 1
      case "+": range = (1, nil); position += 1
      case "?": range = (0, 1); position += 1
      case "{": range = try counted()
      default: break
      }
      guard let (low, high) = range else { break }
      quantifiers += 1
      if quantifiers > 1 { throw RegexError(message: "bad repetition operator '\(c)'") }
      if case .empty = node { throw RegexError(message: "missing argument to repetition operator") }
      if peek() == "?" { position += 1 }  // lazy: the same set of matches
      node = .repetition(node, min: low, max: high)
    }
    return node
  }

  /// `{n}`, `{n,}` or `{n,m}`; nil (consuming nothing) when the brace is a literal.
  private mutating func counted() throws(RegexError) -> (Int, Int?)? {
    var i = position + 1
    func number() -> Int? {
      var value = 0
      var digits = 0
      while i < pattern.count, ("0"..."9").contains(pattern[i]) {
        value = min(value * 10 + Int(pattern[i].value - 48), 100_000)
        digits += 1
        i += 1
      }
      return digits > 0 ? value : nil
    }
    guard let low = number() else { return nil }
    var high: Int? = low
    if i < pattern.count, pattern[i] == "," {
      i += 1
      high = number()
    }
    guard i < pattern.count, pattern[i] == "}" else { return nil }
    position = i + 1
    if low > Self.maxRepeat || (high ?? 0) > Self.maxRepeat {
      throw RegexError(message: "repetition count above \(Self.maxRepeat)")
    }
    if let high, high < low { throw RegexError(message: "invalid repetition range {\(low),\(high)}") }
    return (low, high)
  }

  private mutating func atom(_ flags: Flags) throws(RegexError) -> RegexNode {
    let c = pattern[position]
    position += 1
    switch c {
    case "(":
      depth += 1
      defer { depth -= 1 }
      if depth > Self.maxDepth { throw RegexError(message: "groups nested too deeply") }
      var inner = flags
      if peek() == "?" {
        position += 1
        try groupPrefix(&inner)
      }
      let node = try alternation(&inner)
      guard peek() == ")" else { throw RegexError(message: "missing ')'") }
      position += 1
      return node
    case "[": return .set(try characterClass(flags))
    case ".": return .any(matchesNewline: flags.dotAll)
    case "^": return .assertion(flags.multiLine ? .beginLine : .beginText)
    case "$": return .assertion(flags.multiLine ? .endLine : .endText)
    case "\\": return try escape(flags)
    case "*", "+", "?": throw RegexError(message: "missing argument to repetition operator '\(c)'")
    default: return .literal(c, foldCase: flags.foldCase)
    }
  }

  /// After `(?`: a name (`P<name>`, `<name>`) or scoped flags (`i:`), or an unsupported form.
  private mutating func groupPrefix(_ flags: inout Flags) throws(RegexError) {
    if peek() == "P" || peek() == "<" {
      if peek() == "P" { position += 1 }
      guard peek() == "<" else { throw RegexError(message: "invalid named group") }
      if peek(1) == "=" || peek(1) == "!" { throw RegexError(message: "lookbehind is not supported (RE2 has none)") }
      while let c = peek(), c != ">" { position += 1 }
      guard peek() == ">" else { throw RegexError(message: "invalid named group") }
      position += 1
      return
    }
    var negate = false
    while let c = peek() {
      position += 1
      switch c {
      case "i": flags.foldCase = !negate
      case "m": flags.multiLine = !negate
      case "s": flags.dotAll = !negate
      case "U": break
      case "-": negate = true
      case ":": return
      case "=", "!": throw RegexError(message: "lookahead is not supported (RE2 has none)")
      default: throw RegexError(message: "invalid or unsupported group '(?\(c)'")
      }
    }
    throw RegexError(message: "missing ')'")
  }

  private mutating func escape(_ flags: Flags) throws(RegexError) -> RegexNode {
    guard let c = peek() else { throw RegexError(message: "trailing backslash") }
    switch c {
    case "A": position += 1; return .assertion(.beginText)
    case "z": position += 1; return .assertion(.endText)
    case "b": position += 1; return .assertion(.wordBoundary)
    case "B": position += 1; return .assertion(.notWordBoundary)
    default: break
    }
    if let ranges = try classEscape() {
      return .set(RegexCharSet(ranges: ranges.ranges, negated: ranges.negated, foldCase: false))
    }
    return .literal(try literalEscape(), foldCase: flags.foldCase)
  }

  /// `\d \D \w \W \s \S` at the current position (after the backslash), consumed; nil otherwise.
  private mutating func classEscape() throws(RegexError) -> (ranges: [ClosedRange<UInt32>], negated: Bool)? {
    guard let c = peek() else { return nil }
    let ranges: [ClosedRange<UInt32>]
    switch c {
    case "d", "D": ranges = RegexCharSet.digit
    case "w", "W": ranges = RegexCharSet.word
    case "s", "S": ranges = RegexCharSet.space
    case "p", "P": throw RegexError(message: "Unicode classes (\\p, \\P) are not supported")
    default: return nil
    }
    position += 1
    return (ranges, c == "D" || c == "W" || c == "S")
  }

  /// A single-character escape (after the backslash), consumed.
  private mutating func literalEscape() throws(RegexError) -> Unicode.Scalar {
    let c = pattern[position]
    position += 1
    switch c {
    case "n": return "\n"
    case "t": return "\t"
    case "r": return "\r"
    case "f": return "\u{0C}"
    case "v": return "\u{0B}"
    case "a": return "\u{07}"
    case "x":
      var digits = ""
      if peek() == "{" {
        position += 1
        while let d = peek(), d != "}" {
          digits.unicodeScalars.append(d)
          position += 1
        }
        guard peek() == "}" else { throw RegexError(message: "missing '}' in \\x{…}") }
        position += 1
      } else {
        for _ in 0..<2 {
          guard let d = peek() else { break }
          digits.unicodeScalars.append(d)
          position += 1
        }
      }
      guard digits.count <= 8, let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
        throw RegexError(message: "invalid \\x escape")
      }
      return scalar
    case "0"..."9": throw RegexError(message: "backreferences and octal escapes are not supported")
    case "Q", "E": throw RegexError(message: "\\Q…\\E is not supported")
    default:
      if c.properties.isAlphabetic || ("0"..."9").contains(c) {
        throw RegexError(message: "invalid escape '\\\(c)'")
      }
      return c
    }
  }

  private mutating func characterClass(_ flags: Flags) throws(RegexError) -> RegexCharSet {
    var set = RegexCharSet(foldCase: flags.foldCase)
    if peek() == "^" {
      set.negated = true
      position += 1
    }
    var first = true
    while true {
      guard let c = peek() else { throw RegexError(message: "missing ']'") }
      if c == "]" && !first {
        position += 1
        return set
      }
      first = false
      if c == "[", peek(1) == ":" {
        var i = position + 2
        var negate = false
        if i < pattern.count, pattern[i] == "^" {
          negate = true
          i += 1
        }
        var name = ""
        while i < pattern.count, pattern[i] != ":" {
          name.unicodeScalars.append(pattern[i])
          i += 1
        }
        if i + 1 < pattern.count, pattern[i + 1] == "]", let ranges = RegexCharSet.posix[name] {
          set.ranges += negate ? RegexCharSet.complement(ranges) : ranges
          position = i + 2
          continue
        }
        throw RegexError(message: "invalid character class '[:\(name):]'")
      }
      let low: Unicode.Scalar
      if c == "\\" {
        position += 1
        guard peek() != nil else { throw RegexError(message: "trailing backslash") }
        if let escaped = try classEscape() {
          set.ranges += escaped.negated ? RegexCharSet.complement(escaped.ranges) : escaped.ranges
          continue
        }
        low = try literalEscape()
      } else {
        low = c
        position += 1
      }
      if peek() == "-", let after = peek(1), after != "]" {
        position += 1
        let high: Unicode.Scalar
        if after == "\\" {
          position += 1
          guard peek() != nil else { throw RegexError(message: "trailing backslash") }
          high = try literalEscape()
        } else {
          high = after
          position += 1
        }
        guard low.value <= high.value else { throw RegexError(message: "invalid class range \(low)-\(high)") }
        set.ranges.append(low.value...high.value)
      } else {
        set.ranges.append(low.value...low.value)
      }
    }
  }
}
