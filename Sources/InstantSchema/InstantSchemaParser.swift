import Foundation

/// Reads `instant.schema.ts` files without running them.
///
/// It understands the TypeScript that real schemas use (imports, comments, trailing commas,
/// type arguments, `i.schema` and the legacy `i.graph`, relative imports) and refuses anything
/// else by name with `file:line:column`.
public enum InstantSchemaParser {
  /// Reads the schema file at `path`, following its relative imports on disk.
  public static func parse(fileAt path: String) throws(Diagnostic) -> ParsedSchema {
    let file = SourcePath(file: path)
    guard let text = try? String(contentsOfFile: file.absolute, encoding: .utf8) else {
      throw Diagnostic.unreadable(path)
    }
    return try parse(source: text, file) { file in
      try? String(contentsOfFile: file, encoding: .utf8)
    }
  }

  /// Reads a schema from `source`. Relative imports are looked up with `readFile`, which gets
  /// absolute paths and returns `nil` for a missing file.
  public static func parse(
    source: String, path: String = "instant.schema.ts", readFile: @escaping (String) -> String? = { _ in nil }
  ) throws(Diagnostic) -> ParsedSchema {
    try parse(source: source, SourcePath(text: path), readFile: readFile)
  }

  private static func parse(
    source: String, _ file: SourcePath, readFile: @escaping (String) -> String?
  ) throws(Diagnostic) -> ParsedSchema {
    let path = file.given
    let interpreter = Interpreter(readFile: readFile)
    let schema: InstantSchemaDefinition
    do throws(Diagnostic) {
      let entry = try interpreter.loadModule(path: file.absolute, text: source)
      let reader = SchemaReader(interpreter: interpreter)
      schema = try reader.read(try reader.locateSchema(in: entry))
    } catch {
      throw file.relative(error)
    }
    let warnings = interpreter.warnings.map { warning -> Diagnostic in
      var warning = warning
      warning.location = file.relative(warning.location)
      return warning
    }
    return ParsedSchema(
      schema: schema, warnings: warnings, sourceName: (path as NSString).lastPathComponent,
      sourceHash: SHA256.hex(Array(source.utf8)), files: interpreter.modulePaths,
      locations: interpreter.locations.compactMapValues { file.relative($0) })
  }
}
