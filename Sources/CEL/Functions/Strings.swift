/// String functions: the standard `size`, `contains`, `startsWith`, `endsWith`, and cel-java's
/// strings extension (which InstantDB enables): `charAt`, `indexOf`, `lastIndexOf`,
/// `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim` and `join`.
///
/// CEL strings are sequences of code points: sizes and indexes count Unicode scalars, and
/// matching compares scalars (no normalization), unlike Swift's `Character`-based operations.
enum Strings {
  static func size(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .string(let s): return .int(Int64(s.unicodeScalars.count))
    case .bytes(let b): return .int(Int64(b.count))
    case .list(let l): return .int(Int64(l.count))
    case .map(let m): return .int(Int64(m.count))
    case .object(let o):
      guard let whole = try Builtins.materialize(o) else { throw Builtins.noOverload("size", [value]) }
      return try size(whole)
    default: throw Builtins.noOverload("size", [value])
    }
  }

  static func contains(_ s: String, _ part: String, _ frame: Frame) throws(CELEvaluationError) -> Bool {
    let haystack = Array(s.utf8)
    try frame.charge(haystack.count / 64)
    return find(Array(part.utf8), in: haystack, from: 0) != nil
  }

  static func startsWith(_ s: String, _ prefix: String) -> Bool {
    s.utf8.starts(with: prefix.utf8)
  }

  static func endsWith(_ s: String, _ suffix: String) -> Bool {
    s.utf8.reversed().starts(with: suffix.utf8.reversed())
  }

  /// First position at or after `start` where `needle` occurs in `haystack`.
  private static func find<T: Equatable>(_ needle: [T], in haystack: [T], from start: Int) -> Int? {
    guard let first = needle.first else { return start <= haystack.count ? start : nil }
    guard needle.count <= haystack.count else { return nil }
    var i = start
    while i <= haystack.count - needle.count {
      if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }

  // MARK: The strings extension

  static func charAt(_ s: String, _ index: Int64) throws(CELEvaluationError) -> CELValue {
    let scalars = Array(s.unicodeScalars)
    guard index >= 0 && index <= Int64(scalars.count) else { throw outOfRange(index, scalars.count) }
    return .string(index == Int64(scalars.count) ? "" : String(scalars[Int(index)]))
  }

  static func indexOf(_ s: String, _ part: String, from start: Int64?, _ frame: Frame) throws(CELEvaluationError) -> CELValue {
    let scalars = Array(s.unicodeScalars)
    try frame.charge(scalars.count / 16)
    let start = start ?? 0
    guard start >= 0 && start <= Int64(scalars.count) else { throw outOfRange(start, scalars.count) }
    let found = find(Array(part.unicodeScalars), in: scalars, from: Int(start))
    return .int(found.map(Int64.init) ?? -1)
  }

  static func lastIndexOf(_ s: String, _ part: String, upTo end: Int64?, _ frame: Frame) throws(CELEvaluationError) -> CELValue {
    let scalars = Array(s.unicodeScalars)
    try frame.charge(scalars.count / 16)
    let needle = Array(part.unicodeScalars)
    let end = end ?? Int64(scalars.count)
    guard end >= 0 && end <= Int64(scalars.count) else { throw outOfRange(end, scalars.count) }
    var i = min(Int(end), scalars.count - needle.count)
    while i >= 0 {
      if scalars[i..<(i + needle.count)].elementsEqual(needle) { return .int(Int64(i)) }
      i -= 1
    }
    return .int(-1)
  }

  static func lowerAscii(_ s: String) -> CELValue {
    .string(mapScalars(s) { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 })
  }

  static func upperAscii(_ s: String) -> CELValue {
    .string(mapScalars(s) { ("a"..."z").contains($0) ? Unicode.Scalar($0.value - 32)! : $0 })
  }

  private static func mapScalars(_ s: String, _ transform: (Unicode.Scalar) -> Unicode.Scalar) -> String {
    var out = String.UnicodeScalarView()
    for scalar in s.unicodeScalars { out.append(transform(scalar)) }
    return String(out)
  }

  /// Replaces the first `limit` occurrences (all when negative). An empty `old` matches between
  /// every two code points and at both ends, as in Go and Java.
  static func replace(_ s: String, _ old: String, _ new: String, limit: Int64, _ frame: Frame) throws(CELEvaluationError) -> CELValue {
    let scalars = Array(s.unicodeScalars)
    let needle = Array(old.unicodeScalars)
    let replacement = Array(new.unicodeScalars)
    try frame.charge(scalars.count / 16)
    var out: [Unicode.Scalar] = []
    var replaced: Int64 = 0
    var i = 0
    while i <= scalars.count {
      let canReplace = limit < 0 || replaced < limit
      if canReplace, i + needle.count <= scalars.count, scalars[i..<(i + needle.count)].elementsEqual(needle) {
        out.append(contentsOf: replacement)
        replaced += 1
        try frame.checkLength(out.count)
        if needle.isEmpty {
          if i < scalars.count { out.append(scalars[i]) }
          i += 1
        } else {
          i += needle.count
        }
      } else {
        if i < scalars.count { out.append(scalars[i]) }
        i += 1
      }
    }
    try frame.checkLength(out.count)
    var text = ""
    text.unicodeScalars.append(contentsOf: out)
    return .string(text)
  }

  /// Splits into at most `limit` parts (all when negative, none when zero). An empty separator
  /// splits into code points.
  static func split(_ s: String, _ separator: String, limit: Int64, _ frame: Frame) throws(CELEvaluationError) -> CELValue {
    if limit == 0 { return .list([]) }
    let scalars = Array(s.unicodeScalars)
    let needle = Array(separator.unicodeScalars)
    try frame.charge(scalars.count / 16)
    var parts: [CELValue] = []
    func text(_ slice: ArraySlice<Unicode.Scalar>) -> CELValue {
      var t = ""
      t.unicodeScalars.append(contentsOf: slice)
      return .string(t)
    }
    var start = 0
    if needle.isEmpty {
      while start < scalars.count {
        if limit > 0 && Int64(parts.count) == limit - 1 { break }
        parts.append(text(scalars[start..<(start + 1)]))
        start += 1
        try frame.checkCollection(parts.count)
      }
      if start < scalars.count { parts.append(text(scalars[start...])) }
      return .list(parts)
    }
    var i = 0
    while i + needle.count <= scalars.count {
      if limit > 0 && Int64(parts.count) == limit - 1 { break }
      if scalars[i..<(i + needle.count)].elementsEqual(needle) {
        parts.append(text(scalars[start..<i]))
        try frame.checkCollection(parts.count)
        i += needle.count
        start = i
      } else {
        i += 1
      }
    }
    parts.append(text(scalars[start...]))
    return .list(parts)
  }

  static func substring(_ s: String, _ start: Int64, _ end: Int64?) throws(CELEvaluationError) -> CELValue {
    let scalars = Array(s.unicodeScalars)
    let end = end ?? Int64(scalars.count)
    guard start >= 0 && start <= Int64(scalars.count) else { throw outOfRange(start, scalars.count) }
    guard end >= start && end <= Int64(scalars.count) else {
      throw CELEvaluationError(
        .invalidArgument, "substring end \(end) is out of range (start \(start), length \(scalars.count))")
    }
    var t = ""
    t.unicodeScalars.append(contentsOf: scalars[Int(start)..<Int(end)])
    return .string(t)
  }

  static func trim(_ s: String) -> CELValue {
    let scalars = Array(s.unicodeScalars)
    var start = 0
    var end = scalars.count
    while start < end && scalars[start].properties.isWhitespace { start += 1 }
    while end > start && scalars[end - 1].properties.isWhitespace { end -= 1 }
    var t = ""
    t.unicodeScalars.append(contentsOf: scalars[start..<end])
    return .string(t)
  }

  static func join(_ list: [CELValue], _ separator: String, _ frame: Frame) throws(CELEvaluationError) -> CELValue {
    var out = ""
    var length = 0
    let separatorLength = separator.unicodeScalars.count
    try frame.charge(list.count / 16)
    for (i, element) in list.enumerated() {
      guard case .string(let s) = element else {
        throw CELEvaluationError(.noSuchOverload, "join() needs a list of strings; element \(i) is \(element.celType)")
      }
      if i > 0 {
        out += separator
        length += separatorLength
      }
      out += s
      length += s.unicodeScalars.count
      try frame.checkLength(length)
    }
    return .string(out)
  }

  private static func outOfRange(_ index: Int64, _ length: Int) -> CELEvaluationError {
    CELEvaluationError(.invalidArgument, "index \(index) is out of range for a string of length \(length)")
  }
}
