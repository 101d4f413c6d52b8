/// Something the parser accepted but that the user should know about, such as a deprecated
/// form or a type argument that could not be mapped to Swift.
public struct SchemaWarning: Sendable, Hashable, CustomStringConvertible {
  /// Where it happened.
  public var location: SourceLocation?
  /// The place in the schema, for example `entities.todos.title`.
  public var schemaPath: String?
  /// What was noticed and what the generator did about it.
  public var message: String

  /// Creates a warning.
  public init(_ message: String, at location: SourceLocation? = nil, schemaPath: String? = nil) {
    self.message = message
    self.location = location
    self.schemaPath = schemaPath
  }

  public var description: String {
    var text = ""
    if let location { text += "\(location): " }
    text += "warning: \(message)"
    if let schemaPath { text += " (at \(schemaPath))" }
    return text
  }
}
