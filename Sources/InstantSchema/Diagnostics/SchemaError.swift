import Foundation

/// Why a schema could not be read or generated.
///
/// The description reads `file:line:column: error: message`, followed by the schema path
/// (`entities.todos.title`) when there is one, so editors and CI logs can jump to the spot.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure.
  public enum Kind: String, Sendable, Hashable {
    /// The text is not valid TypeScript where the parser looked.
    case syntax
    /// Valid TypeScript, but a construct the generator refuses to interpret (named in the message).
    case unsupported
    /// A well-formed schema that breaks one of InstantDB's rules.
    case invalid
    /// No `i.schema(...)` or `i.graph(...)` could be found.
    case schemaNotFound
    /// A file could not be read or written.
    case io
    /// Talking to an Instant server failed.
    case network
  }

  /// The kind of failure.
  public var kind: Kind
  /// Where it happened, when it is tied to the source.
  public var location: SourceLocation?
  /// The place in the schema, for example `entities.todos.title`.
  public var schemaPath: String?
  /// What went wrong and what to do about it.
  public var message: String

  /// Creates an error.
  public init(_ kind: Kind, _ message: String, at location: SourceLocation? = nil, schemaPath: String? = nil) {
    self.kind = kind
    self.message = message
    self.location = location
    self.schemaPath = schemaPath
  }

  public var description: String {
    var text = ""
    if let location { text += "\(location): " }
    text += "error: \(message)"
    if let schemaPath { text += " (at \(schemaPath))" }
    return text
  }
}

extension SchemaError {
  /// The schema file at `path` does not exist, or cannot be read as UTF-8 text.
  static func unreadable(_ path: String) -> SchemaError {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    guard FileManager.default.fileExists(atPath: absolute) else {
      return SchemaError(
        .io, "\(path) does not exist (looked for \(absolute)); `instant-schema sample` writes a sample schema")
    }
    return SchemaError(.io, "cannot read \(path): not a readable UTF-8 text file")
  }
}
