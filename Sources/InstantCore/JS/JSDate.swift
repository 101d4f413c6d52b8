/// `new Date(x).getTime()` for the values InstantDB stores in `date` attrs: epoch milliseconds
/// or a date string. NaN for anything JavaScript could not read.
///
/// Strings follow ECMAScript's date-time format (date-only forms are UTC) plus the legacy forms
/// V8 also accepts and InstantDB users write: a space instead of `T`, more than three fractional
/// digits, `M/D/YYYY`, month names (`Jan 7 2021`, `7 Jan 2021`), a leading weekday, and `GMT`/`UTC`
/// or `±HH:MM`/`±HHMM` offsets. Forms without an offset are read as UTC, which is what V8 does on
/// a machine whose zone is UTC; InstantDB recommends ISO strings with `Z`, which are exact everywhere.
enum JSDate {
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

  static func parse(_ raw: String) -> Double {
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

  static func parseLegacy(_ s: String) -> Double? {
    // Tokenise into words, numbers and separators.
    var tokens: [String] = []
    var current = ""
    for c in s {
      if c.isLetter || c.isNumber {
        if let last = current.last, last.isLetter != c.isLetter {
          tokens.append(current)
          current = ""
        }
        current.append(c)
      } else {
        if !current.isEmpty { tokens.append(current); current = "" }
        if c == ":" || c == "/" || c == "+" || c == "-" || c == "." { tokens.append(String(c)) }
      }
    }
    if !current.isEmpty { tokens.append(current) }
    var year: Int?, month: Int?, day: Int?
    var hour = 0, minute = 0, second = 0, millis = 0.0
    var offset: Int? = nil
    var numbers: [Int] = []
    var i = 0
    var pm: Bool? = nil
    while i < tokens.count {
      let token = tokens[i]
      let lower = token.lowercased()
      if let n = Int(token) {
        if i + 2 < tokens.count, tokens[i + 1] == ":", let mi = Int(tokens[i + 2]) {
          hour = n
          minute = mi
          i += 3
          if i + 1 < tokens.count, tokens[i] == ":", let sec = Int(tokens[i + 1]) {
            second = sec
            i += 2
            if i + 1 < tokens.count, tokens[i] == ".", let frac = Int(tokens[i + 1].prefix(3)) {
              millis = Double(frac) * pow10(3 - min(3, tokens[i + 1].count))
              i += 2
            }
          }
          continue
        }
        if i + 4 < tokens.count, tokens[i + 1] == "/", tokens[i + 3] == "/", let d = Int(tokens[i + 2]),
          let y = Int(tokens[i + 4])
        {
          month = n
          day = d
          year = y < 50 ? 2000 + y : (y < 100 ? 1900 + y : y)
          i += 5
          continue
        }
        numbers.append(n)
        i += 1
        continue
      }
      if let m = monthNames.firstIndex(where: { lower.hasPrefix($0) }), lower.count >= 3 {
        month = m + 1
        i += 1
        continue
      }
      if lower == "gmt" || lower == "utc" || lower == "z" {
        offset = offset ?? 0
        i += 1
        continue
      }
      if lower == "am" || lower == "pm" {
        pm = lower == "pm"
        i += 1
        continue
      }
      if (token == "+" || token == "-"), i + 1 < tokens.count, let v = Int(tokens[i + 1]) {
        let sign = token == "-" ? -1 : 1
        var h = v / 100, m = v % 100
        if tokens[i + 1].count <= 2 {
          h = v
          m = 0
          if i + 3 < tokens.count, tokens[i + 2] == ":", let mm = Int(tokens[i + 3]) {
            m = mm
            i += 2
          }
        }
        if year == nil, numbers.count < 1, token == "-" { return nil }
        offset = sign * (h * 60 + m)
        i += 2
        continue
      }
      if ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].contains(where: { lower.hasPrefix($0) }) {
        i += 1
        continue
      }
      if token == "/" || token == "-" || token == "." {
        i += 1
        continue
      }
      return nil
    }
    if let pm {
      if pm && hour < 12 { hour += 12 }
      if !pm && hour == 12 { hour = 0 }
    }
    if month != nil, year == nil {
      // "Jan 7 2021" / "7 Jan 2021"
      guard numbers.count >= 2 else { return nil }
      if numbers[0] > 31 {
        year = numbers[0]
        day = numbers[1]
      } else {
        day = numbers[0]
        year = numbers[1]
      }
    } else if month == nil {
      return nil
    }
    guard var y = year, let mo = month, let d = day else { return nil }
    if y < 100, y >= 0 { y += y < 50 ? 2000 : 1900 }
    guard (1...12).contains(mo), d >= 1, d <= 31, hour < 24, minute < 60, second < 60 else { return nil }
    let days = daysFromCivil(y, mo, d)
    var t = Double(days) * 86_400_000 + Double(hour * 3_600_000 + minute * 60_000 + second * 1000) + millis
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
