import Foundation

/// The result of reading a schema file.
public struct ParsedSchema: Sendable, Hashable {
  /// The schema.
  public var schema: InstantSchemaDefinition
  /// What was accepted with a caveat (deprecated forms, ignored keys, unmapped type arguments).
  public var warnings: [SchemaWarning]
  /// The entry file's name, for generated headers.
  public var sourceName: String
  /// The lower-case SHA-256 of the entry file's bytes.
  public var sourceHash: String
  /// Every module read, entry file first.
  public var files: [String]

  /// Creates a result.
  public init(schema: InstantSchemaDefinition, warnings: [SchemaWarning] = [], sourceName: String, sourceHash: String, files: [String] = []) {
    self.schema = schema
    self.warnings = warnings
    self.sourceName = sourceName
    self.sourceHash = sourceHash
    self.files = files
  }
}
