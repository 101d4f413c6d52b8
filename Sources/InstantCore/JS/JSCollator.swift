import Foundation

/// `Intl.Collator('en-US').compare`: ICU collation, used to order `checked-data-type: "string"`
/// attrs (`'10' < '2' < 'a0' < 'Zz'`, lower case before upper case at the last level).
enum JSCollator {
  static let locale = Locale(identifier: "en_US")

  static func compare(_ a: String, _ b: String) -> Int {
    if a == b { return 0 }
    switch a.compare(b, options: [], range: nil, locale: locale) {
    case .orderedAscending: return -1
    case .orderedSame: return 0
    case .orderedDescending: return 1
    }
  }
}
