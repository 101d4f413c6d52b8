/// Calendar arithmetic on the proleptic Gregorian calendar, so timestamps need no Foundation.
enum CivilTime {
  struct Fields {
    var year: Int64
    var month: Int64  // 1...12
    var day: Int64  // 1...31
    var hour: Int64
    var minute: Int64
    var second: Int64
    var dayOfWeek: Int64  // 0 = Sunday
    var dayOfYear: Int64  // 0-based
  }

  static let secondsPerDay: Int64 = 86_400

  /// Days since 1970-01-01 of a civil date (any year the timestamp range allows).
  static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    // Count years from March, so that the leap day is the last day of a "year".
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date of a day count since 1970-01-01.
  static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  static func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The calendar fields of a count of seconds since the epoch, at a fixed offset from UTC.
  static func fields(epochSeconds: Int64, offsetSeconds: Int64) -> Fields {
    let local = epochSeconds + offsetSeconds
    var days = local / secondsPerDay
    var secondOfDay = local % secondsPerDay
    if secondOfDay < 0 {
      secondOfDay += secondsPerDay
      days -= 1
    }
    let (year, month, day) = date(days: days)
    var dayOfWeek = (days + 4) % 7  // 1970-01-01 was a Thursday
    if dayOfWeek < 0 { dayOfWeek += 7 }
    return Fields(
      year: year, month: month, day: day,
      hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60, second: secondOfDay % 60,
      dayOfWeek: dayOfWeek, dayOfYear: days - Self.days(year: year, month: 1, day: 1)
    )
  }
}
