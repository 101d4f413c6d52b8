import Foundation

/// `Intl.Collator('en-US').compare`: ICU collation, used to order `checked-data-type: "string"`
/// attrs (`'10' < '2' < 'a0' < 'Zz'`, lower case before upper case at the last level).
enum JSCollator {
  static let locale = Locale(identifier: "en_US")

  ///
  /// Foundation's locale comparison stops short of ICU's tertiary level for compatibility
  /// variants (full-width `ｚ` against `z`, `①` against `1`); for those, `.forcedOrdering` gives
  /// ICU's order. Canonically equivalent strings stay equal, as in ICU.
  static func compare(_ a: String, _ b: String) -> Int {
    if a == b { return 0 }
    // Control and format characters (U+0001, U+200B, U+00AD, …) are ignorable in ICU's default
    // collation; Foundation's comparison does not ignore them.
    let x = ignoringControls(a)
    let y = ignoringControls(b)
    if x == y { return 0 }
    switch x.compare(y, options: [], range: nil, locale: locale) {
    case .orderedAscending: return -1
    case .orderedDescending: return 1
    case .orderedSame:
      switch x.compare(y, options: [.forcedOrdering], range: nil, locale: locale) {
      case .orderedAscending: return -1
      case .orderedDescending: return 1
      case .orderedSame: return 0
      }
    }
  }

  static func ignoringControls(_ s: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in s.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .format: continue
      default: out.append(scalar)
      }
    }
    return String(out)
  }
}
