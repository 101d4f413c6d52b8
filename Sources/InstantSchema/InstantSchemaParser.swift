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

/// Reads `instant.schema.ts` files without running them.
///
/// It understands the TypeScript that real schemas use (imports, comments, trailing commas,
/// type arguments, `i.schema` and the legacy `i.graph`, relative imports) and refuses anything
/// else by name with `file:line:column`.
public enum InstantSchemaParser {
  /// Reads the schema file at `path`, following its relative imports on disk.
  public static func parse(fileAt path: String) throws(SchemaError) -> ParsedSchema {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    guard let text = try? String(contentsOfFile: absolute, encoding: .utf8) else {
      throw SchemaError(.io, "cannot read \(path); check the path given to --from")
    }
    return try parse(source: text, path: path, absolutePath: absolute) { file in
      try? String(contentsOfFile: file, encoding: .utf8)
    }
  }

  /// Reads a schema from `source`. Relative imports are looked up with `readFile`, which gets
  /// absolute paths and returns `nil` for a missing file.
  public static func parse(
    source: String, path: String = "instant.schema.ts", readFile: @escaping (String) -> String? = { _ in nil }
  ) throws(SchemaError) -> ParsedSchema {
    let absolute = path.hasPrefix("/") ? path : URL(fileURLWithPath: "/" + path).standardizedFileURL.path
    return try parse(source: source, path: path, absolutePath: absolute, readFile: readFile)
  }

  private static func parse(
    source: String, path: String, absolutePath: String, readFile: @escaping (String) -> String?
  ) throws(SchemaError) -> ParsedSchema {
    let interpreter = Interpreter(readFile: readFile)
    let schema: InstantSchemaDefinition
    do {
      let entry = try interpreter.loadModule(path: absolutePath, text: source)
      let reader = SchemaReader(interpreter: interpreter)
      schema = try reader.read(try reader.locateSchema(in: entry))
    } catch var error {
      if error.location?.file == absolutePath { error.location?.file = path }
      error.message = error.message.replacingOccurrences(of: absolutePath + ":", with: path + ":")
      throw error
    }
    let warnings = interpreter.warnings.map { warning -> SchemaWarning in
      var warning = warning
      if warning.location?.file == absolutePath { warning.location?.file = path }
      return warning
    }
    return ParsedSchema(
      schema: schema, warnings: warnings, sourceName: (path as NSString).lastPathComponent,
      sourceHash: SHA256.hex(Array(source.utf8)), files: interpreter.modulePaths)
  }
}
