import Foundation

/// Reads `instant.schema.ts` files without running them.
///
/// It understands the TypeScript that real schemas use (imports, comments, trailing commas,
/// type arguments, `i.schema` and the legacy `i.graph`, relative imports) and refuses anything
/// else by name with `file:line:column`.
public enum InstantSchemaParser {
  /// Reads the schema file at `path`, following its relative imports on disk.
  public static func parse(fileAt path: String) throws(Diagnostic) -> ParsedSchema {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    guard let text = try? String(contentsOfFile: absolute, encoding: .utf8) else {
      throw Diagnostic.unreadable(path)
    }
    return try parse(source: text, path: path, absolutePath: absolute) { file in
      try? String(contentsOfFile: file, encoding: .utf8)
    }
  }

  /// Reads a schema from `source`. Relative imports are looked up with `readFile`, which gets
  /// absolute paths and returns `nil` for a missing file.
  public static func parse(
    source: String, path: String = "instant.schema.ts", readFile: @escaping (String) -> String? = { _ in nil }
  ) throws(Diagnostic) -> ParsedSchema {
    let absolute = path.hasPrefix("/") ? path : URL(fileURLWithPath: "/" + path).standardizedFileURL.path
    return try parse(source: source, path: path, absolutePath: absolute, readFile: readFile)
  }

  private static func parse(
    source: String, path: String, absolutePath: String, readFile: @escaping (String) -> String?
  ) throws(Diagnostic) -> ParsedSchema {
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
    func relative(_ location: SourceLocation?) -> SourceLocation? {
      guard var location else { return nil }
      if location.file == absolutePath { location.file = path }
      return location
    }
    let warnings = interpreter.warnings.map { warning -> Diagnostic in
      var warning = warning
      warning.location = relative(warning.location)
      return warning
    }
    return ParsedSchema(
      schema: schema, warnings: warnings, sourceName: (path as NSString).lastPathComponent,
      sourceHash: SHA256.hex(Array(source.utf8)), files: interpreter.modulePaths,
      locations: interpreter.locations.compactMapValues(relative))
  }
}
