import Foundation

/// Something instant-schema has to say about a schema: an error, which stops reading or
/// generating it and is thrown, or a warning, about a form it accepted (deprecated, ignored, or
/// mapped to `JSON`, a property renamed), which is collected in ``ParsedSchema/warnings`` and
/// ``SwiftGenerator/Output/warnings``.
///
/// The description reads `file:line:column: error: message` (or `warning:`), followed by the
/// schema path (`entities.todos.title`) when there is one, so editors and CI logs can jump to the
/// spot.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
  /// Whether a diagnostic stopped the work.
  public enum Severity: String, Sendable, Hashable {
    /// The schema could not be read or generated.
    case error
    /// The schema was read and generated; what was noticed and what the generator did about it.
    case warning
  }

  /// The kind of failure an error is.
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

  /// Error or warning.
  public var severity: Severity
  /// The kind of failure of an error; `nil` for a warning.
  public var kind: Kind?
  /// Where it happened, when it is tied to the source.
  public var location: SourceLocation?
  /// The place in the schema, for example `entities.todos.title`.
  public var schemaPath: String?
  /// What went wrong or was noticed, and what to do about it.
  public var message: String

  /// An error of `kind`.
  public static func error(
    _ kind: Kind, _ message: String, at location: SourceLocation? = nil, schemaPath: String? = nil
  ) -> Diagnostic {
    Diagnostic(severity: .error, kind: kind, location: location, schemaPath: schemaPath, message: message)
  }

  /// A warning.
  public static func warning(_ message: String, at location: SourceLocation? = nil, schemaPath: String? = nil) -> Diagnostic {
    Diagnostic(severity: .warning, kind: nil, location: location, schemaPath: schemaPath, message: message)
  }

  public var description: String {
    var text = ""
    if let location { text += "\(location): " }
    text += "\(severity.rawValue): \(message)"
    if let schemaPath { text += " (at \(schemaPath))" }
    return text
  }
}

extension Diagnostic {
  /// The schema file at `path` does not exist, or cannot be read as UTF-8 text.
  static func unreadable(_ path: String) -> Diagnostic {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    guard FileManager.default.fileExists(atPath: absolute) else {
      return .error(.io, "\(path) does not exist (looked for \(absolute)); `instant-schema sample` writes a sample schema")
    }
    return .error(.io, "cannot read \(path): not a readable UTF-8 text file")
  }
}
