/// A query the engine refuses.
///
/// `kind` says what went wrong; `message` is the reference's text (a JavaScript `TypeError` where
/// the reference client throws one, the server's validation text for `serverQuery`), which
/// conformance and the wire need; `description` says it for a Swift caller.
public struct InstaQLError: Error, CustomStringConvertible, Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    /// A `null` or missing value where the query needs an object, list or value (the reference
    /// client throws a JavaScript `TypeError`).
    case malformedQuery
    /// A path or child form steps through `namespace.label`, which is not a link.
    case notALink(attribute: String)
    /// An unknown namespace or label escaped the form that should have come back empty.
    case attrNotFound
    /// An option the server refuses; `path` is like `users.$.limit`.
    case invalidOption(path: String)
  }

  public var kind: Kind
  /// The reference's text.
  public var message: String
  public var description: String

  /// The reference client's `TypeError`, with what it means in the query.
  static func typeError(_ jsMessage: String, _ meaning: String) -> Self {
    InstaQLError(kind: .malformedQuery, message: "TypeError: \(jsMessage)", description: "Malformed query: \(meaning)")
  }

  static func notALink(_ attr: Attr) -> Self {
    InstaQLError(
      kind: .notALink(attribute: attr.qualifiedName), message: "Attr \(attr.id) is not a ref",
      description: "\(attr.qualifiedName) is not a link, so a query cannot follow it.")
  }

  static func invalidOption(_ path: [String], _ reason: String) -> Self {
    let at = path.joined(separator: ".")
    return InstaQLError(
      kind: .invalidOption(path: at), message: at.isEmpty ? reason : "\(at): \(reason)",
      description: at.isEmpty ? "Invalid query: \(reason)" : "Invalid query option \(at): \(reason)")
  }
}
