/// `new Date(x).getTime()` for the values InstantDB stores in `date` attrs: epoch milliseconds
/// or a date string. NaN for anything JavaScript could not read.
///
/// Strings follow ECMAScript's date-time format (date-only forms are UTC) plus the legacy forms
/// V8 also accepts and InstantDB users write: a space instead of `T`, more than three fractional
/// digits, `M/D/YYYY`, month names (`Jan 7 2021`, `7 Jan 2021`), a leading weekday, and `GMT`/`UTC`
/// or `±HH:MM`/`±HHMM` offsets. Forms without an offset are read as UTC, which is what V8 does on
/// a machine whose zone is UTC; InstantDB recommends ISO strings with `Z`, which are exact everywhere.
public enum JSDate {
  static func timeValue(_ value: JSValue) -> Double {
    switch value {
    case .undefined: return .nan
    case .null: return 0
    case let .bool(b): return b ? 1 : 0
    case let .number(n): return timeClip(n)
    case let .string(s): return parse(s)
    case .object: return timeValue(value.primitive)
    }
  }

  static func timeClip(_ t: Double) -> Double {
    guard t.isFinite, abs(t) <= 8.64e15 else { return .nan }
    return t.rounded(.towardZero) + 0  // +0 turns -0 into 0
  }

  /// `Date.parse(raw)`: the epoch milliseconds of a date string, or NaN when it is not a date.
  /// SharingInstant decodes `i.date()` strings with it, so it accepts what the server stores.
  public static func parse(_ raw: String) -> Double {
    let s = raw.trimmingJSWhitespace
    if let t = parseISO(s) { return t }
    if let t = parseLegacy(s) { return t }
    return .nan
  }

  // MARK: ISO 8601 as ECMAScript (and V8's lenient variant) reads it

  static func parseISO(_ s: String) -> Double? {
    var scanner = DateScanner(s)
    var year: Int
    if let sign = scanner.peek, sign == "+" || sign == "-" {
      scanner.advance()
      guard let y = scanner.digits(exactly: 6) else { return nil }
      if sign == "-" && y == 0 { return nil }
      year = sign == "-" ? -y : y
    } else {
      guard let y = scanner.digits(exactly: 4) else { return nil }
      year = y
    }
    var month = 1, day = 1
    var hour = 0, minute = 0, second = 0
    var millis = 0.0
    var offsetMinutes: Int? = nil
    var hasTime = false
    if scanner.eat("-") {
      guard let m = scanner.digits(exactly: 2) else { return nil }
      month = m
      if scanner.eat("-") {
        guard let d = scanner.digits(exactly: 2) else { return nil }
        day = d
      }
    }
    if let c = scanner.peek, c == "T" || c == "t" || c == " " {
      scanner.advance()
      guard let h = scanner.digits(exactly: 2), scanner.eat(":"), let mi = scanner.digits(exactly: 2) else {
        return nil
      }
      hour = h
      minute = mi
      hasTime = true
      if scanner.eat(":") {
        guard let sec = scanner.digits(exactly: 2) else { return nil }
        second = sec
        if scanner.eat(".") || scanner.eat(",") {
          guard let frac = scanner.digitString(), !frac.isEmpty else { return nil }
          let ms = (frac + "000").prefix(3)
          millis = Double(Int(ms) ?? 0)
        }
      }
      if scanner.eat("Z") || scanner.eat("z") {
        offsetMinutes = 0
      } else if let c = scanner.peek, c == "+" || c == "-" {
        scanner.advance()
        guard let oh = scanner.digits(exactly: 2) else { return nil }
        _ = scanner.eat(":")
        guard let om = scanner.digits(exactly: 2) else { return nil }
        offsetMinutes = (c == "-" ? -1 : 1) * (oh * 60 + om)
      }
    } else if scanner.eat("Z") {
      offsetMinutes = 0
    }
    guard scanner.atEnd else { return nil }
    _ = hasTime
    guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour <= 24, minute <= 59,
      second <= 59
    else { return nil }
    if hour == 24 && (minute != 0 || second != 0 || millis != 0) { return nil }
    let days = daysFromCivil(year, month, day)
    var t = Double(days) * 86_400_000 + Double(hour * 3_600_000 + minute * 60_000 + second * 1000) + millis
    if let offsetMinutes { t -= Double(offsetMinutes) * 60_000 }
    return timeClip(t)
  }

  // MARK: Legacy forms

  static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
  static let zones: [String: Int] = [
    "z": 0, "ut": 0, "utc": 0, "gmt": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420,
    "mdt": -360, "pst": -480, "pdt": -420,
  ]

  /// V8's fallback parser, for the forms `Date.parse` accepts beyond ISO 8601: numeric dates with
  /// `/`, `-` or `.` (year first when the first number has three or more digits, else month/day/year),
  /// month names, a time anywhere, AM/PM, zone names and offsets, weekdays and `(comments)` ignored.
  static func parseLegacy(_ input: String) -> Double? {
    // Drop parenthesised comments.
    var s = ""
    var depth = 0
    for c in input {
      if c == "(" { depth += 1; continue }
      if c == ")" { depth = max(0, depth - 1); continue }
      if depth == 0 { s.append(c) }
    }
    enum Token: Equatable { case number(Int, digits: Int), word(String), symbol(Character) }
    var tokens: [Token] = []
    var i = s.startIndex
    while i < s.endIndex {
      let c = s[i]
      if c.isASCII && c.isNumber {
        var j = i
        while j < s.endIndex, s[j].isASCII, s[j].isNumber { j = s.index(after: j) }
        let text = s[i..<j]
        guard text.count <= 9, let n = Int(text) else { return nil }
        tokens.append(.number(n, digits: text.count))
        i = j
      } else if c.isLetter {
        var j = i
        while j < s.endIndex, s[j].isLetter { j = s.index(after: j) }
        tokens.append(.word(s[i..<j].lowercased()))
        i = j
      } else {
        if ":/-.+,".contains(c) { tokens.append(.symbol(c)) }
        i = s.index(after: i)
      }
    }
    var hour: Int?, minute = 0, second = 0, millis = 0.0
    var offset: Int? = nil
    var month: Int? = nil
    var numbers: [(Int, Int)] = []
    var pm: Bool? = nil
    var afterTimeOrZone = false
    var k = 0
    func number(_ at: Int) -> (Int, Int)? {
      guard at < tokens.count, case let .number(n, d) = tokens[at] else { return nil }
      return (n, d)
    }
    while k < tokens.count {
      switch tokens[k] {
      case let .number(n, digits):
        if k + 2 < tokens.count, tokens[k + 1] == .symbol(":"), let (m, _) = number(k + 2), hour == nil {
          hour = n
          minute = m
          afterTimeOrZone = true
          k += 3
          if k + 1 < tokens.count, tokens[k] == .symbol(":"), let (sec, _) = number(k + 1) {
            second = sec
            k += 2
            if k + 1 < tokens.count, tokens[k] == .symbol("."), let (frac, d) = number(k + 1) {
              millis = Double(frac) / pow10(d) * 1000
              millis.round(.towardZero)
              k += 2
            }
          }
          continue
        }
        numbers.append((n, digits))
        afterTimeOrZone = false
        k += 1
      case let .word(w):
        afterTimeOrZone = false
        if let z = zones[w] {
          offset = z
          afterTimeOrZone = true
        } else if w == "am" || w == "pm" {
          pm = w == "pm"
        } else if w == "t" {
          // ISO-like separator.
        } else if let m = monthNames.firstIndex(where: { w.hasPrefix($0) }), w.count >= 3, month == nil {
          month = m + 1
        } else if ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].contains(where: { w.hasPrefix($0) }) {
          // Weekday names are ignored.
        } else {
          return nil
        }
        k += 1
      case let .symbol(c):
        if c == "+" || c == "-", afterTimeOrZone, let (v, d) = number(k + 1) {
          afterTimeOrZone = false
          var minutes = d <= 2 ? v * 60 : (v / 100) * 60 + v % 100
          k += 2
          if d <= 2, k + 1 < tokens.count, tokens[k] == .symbol(":"), let (mm, _) = number(k + 1) {
            minutes += mm
            k += 2
          }
          offset = (c == "-" ? -1 : 1) * minutes
          continue
        }
        k += 1
      }
    }
    var year: Int, mo: Int, day: Int
    if let month {
      mo = month
      switch numbers.count {
      case 1:
        year = numbers[0].0
        day = 1
      case 2...:
        if numbers[0].1 >= 3 || numbers[0].0 > 31 {
          year = numbers[0].0
          day = numbers[1].0
        } else {
          day = numbers[0].0
          year = numbers[1].0
        }
      default: return nil
      }
    } else {
      guard numbers.count >= 2 else { return nil }
      if numbers[0].1 >= 3 {
        year = numbers[0].0
        mo = numbers[1].0
        day = numbers.count > 2 ? numbers[2].0 : 1
      } else {
        guard numbers.count >= 3 else { return nil }
        mo = numbers[0].0
        day = numbers[1].0
        year = numbers[2].0
      }
    }
    if year < 100, numbers.first(where: { $0.0 == year })?.1 ?? 4 <= 2 { year += year < 50 ? 2000 : 1900 }
    var h = hour ?? 0
    if let pm {
      guard h <= 12 else { return nil }
      if pm && h < 12 { h += 12 }
      if !pm && h == 12 { h = 0 }
    }
    guard (1...12).contains(mo), (1...31).contains(day), h <= 24, minute < 60, second < 60 else { return nil }
    let days = daysFromCivil(year, mo, day)
    var t = Double(days) * 86_400_000 + Double(h * 3_600_000 + minute * 60_000 + second * 1000) + millis
    if let offset { t -= Double(offset) * 60_000 }
    return timeClip(t)
  }

  static func pow10(_ n: Int) -> Double {
    var r = 1.0
    for _ in 0..<max(0, n) { r *= 10 }
    return r
  }

  static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

  static func daysInMonth(_ y: Int, _ m: Int) -> Int {
    switch m {
    case 2: return isLeap(y) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}

struct DateScanner {
  let chars: [Character]
  var i = 0
  init(_ s: String) { chars = Array(s) }
  var atEnd: Bool { i >= chars.count }
  var peek: Character? { atEnd ? nil : chars[i] }
  mutating func advance() { i += 1 }
  mutating func eat(_ c: Character) -> Bool {
    if peek == c { i += 1; return true }
    return false
  }
  mutating func digits(exactly n: Int) -> Int? {
    guard i + n <= chars.count else { return nil }
    var v = 0
    for k in 0..<n {
      guard let d = chars[i + k].wholeNumberValue, chars[i + k].isASCII else { return nil }
      v = v * 10 + d
    }
    i += n
    return v
  }
  mutating func digitString() -> String? {
    var s = ""
    while let c = peek, c.isASCII, c.isNumber { s.append(c); i += 1 }
    return s
  }
}

extension String {
  var trimmingJSWhitespace: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !JSValue.isJSWhitespace($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !JSValue.isJSWhitespace($0) })!
    return String(scalars[first...last])
  }
}
