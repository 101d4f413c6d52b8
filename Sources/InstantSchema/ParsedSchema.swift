import Foundation

/// The result of reading a schema file.
public struct ParsedSchema: Sendable, Hashable {
  /// The schema.
  public var schema: InstantSchemaDefinition
  /// What was accepted with a caveat (deprecated forms, ignored keys, unmapped type arguments).
  public var warnings: [Diagnostic]
  /// The entry file's name, for generated headers.
  public var sourceName: String
  /// The lower-case SHA-256 of the entry file's bytes.
  public var sourceHash: String
  /// Every module read, entry file first.
  public var files: [String]
  /// Where each entity, attribute, link and room was declared, by schema path
  /// (`entities.todos.title`), so later diagnostics can point at the source.
  public var locations: [String: SourceLocation]

  /// Creates a result.
  public init(schema: InstantSchemaDefinition, warnings: [Diagnostic] = [], sourceName: String, sourceHash: String, files: [String] = [],
    locations: [String: SourceLocation] = [:]
  ) {
    self.schema = schema
    self.warnings = warnings
    self.sourceName = sourceName
    self.sourceHash = sourceHash
    self.files = files
    self.locations = locations
  }
}
