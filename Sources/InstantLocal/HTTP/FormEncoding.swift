import Foundation

/// `application/x-www-form-urlencoded`, both ways: what a provider's `form_post` callback sends and
/// what a token endpoint takes.
enum FormEncoding {
  /// The fields of a form body or a query string (`+` is a space; later duplicates win).
  static func decode(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decoded(_ part: Substring) -> String? {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
      }
      guard let name = decoded(parts[0]), let value = decoded(parts.count > 1 ? parts[1] : "") else { continue }
      fields[name] = value
    }
    return fields
  }

  /// `fields` as a form body (or query string).
  static func encode(_ fields: [(String, String)]) -> String {
    fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  /// Percent-encodes everything but RFC 3986's unreserved characters.
  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }

  private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
