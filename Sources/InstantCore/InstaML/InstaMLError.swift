/// An operation InstaML cannot expand into tx-steps.
///
/// `kind` says what went wrong; `message` is the reference client's text (what a JavaScript app
/// would see); `description` says it for a Swift caller.
public struct InstaMLError: Error, CustomStringConvertible, Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    /// An entity lookup that is not `[attribute, value]`, `{attribute: value}` or `lookup__attr__json`.
    case invalidLookup
    /// A lookup on an attr that is not unique (or not a link, for `link.id` lookups).
    case lookupNotUnique(attribute: String)
    /// `namespace.label` is not in the app's schema (or has no attr yet).
    case unknownAttribute(String)
    /// `namespace.label` is not a link in the app's schema.
    case unknownLink(String)
    /// The schema or a generated attr could not be read.
    case invalidSchema
  }

  public var kind: Kind
  /// The reference client's text.
  public var message: String
  public var description: String

  init(_ kind: Kind, message: String, description: String? = nil) {
    self.kind = kind
    self.message = message
    self.description = description ?? message
  }

  static func invalidLookup(_ message: String) -> Self {
    InstaMLError(.invalidLookup, message: message, description: "Invalid lookup: \(message)")
  }

  static func notUnique(_ attribute: String, message: String) -> Self {
    InstaMLError(
      .lookupNotUnique(attribute: attribute), message: message,
      description: "Cannot look up an entity by \(attribute): it is not a unique attribute or link.")
  }

  static func unknownAttribute(_ name: String, message: String) -> Self {
    InstaMLError(.unknownAttribute(name), message: message, description: "\(name) is not an attribute in the schema.")
  }

  static func unknownLink(_ name: String, message: String) -> Self {
    InstaMLError(.unknownLink(name), message: message, description: "\(name) is not a link in the schema.")
  }

  static func invalidSchema(_ message: String) -> Self {
    InstaMLError(.invalidSchema, message: message, description: "Invalid schema: \(message)")
  }
}
