import Foundation
public import InstantCore
import OrderedCollections

/// Reads `instant.perms.ts` without running it: the default-exported rules object as JSON, and
/// where each rule's text is in the file, so a rule that does not compile can be reported at
/// `file:line:column`.
///
/// It accepts what real perms files contain: imports, `const` declarations and references to
/// them, `satisfies InstantRules`, comments and trailing commas. A JSON file (`.json`) is read as
/// JSON.
public enum InstantPermsReader {
  /// The rules and the location of every string in them, by its path in the document
  /// (`["todos", "allow", "view"]`).
  public struct Rules: Sendable {
    public var json: JSON
    public var locations: [[String]: SourceLocation]
  }

  public static func read(fileAt path: String) throws(Diagnostic) -> Rules {
    let file = SourcePath(file: path)
    guard let text = try? String(contentsOfFile: file.absolute, encoding: .utf8) else { throw Diagnostic.unreadable(path) }
    if path.hasSuffix(".json") {
      do { return Rules(json: try JSON.parse(text), locations: [:]) } catch {
        throw .error(.syntax, "\(path) is not valid JSON: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
      }
    }
    return try read(source: text, file) { try? String(contentsOfFile: $0, encoding: .utf8) }
  }

  /// Reads perms from `source`; relative imports are looked up with `readFile` (absolute paths).
  public static func read(
    source: String, path: String = "instant.perms.ts", readFile: @escaping (String) -> String? = { _ in nil }
  ) throws(Diagnostic) -> Rules {
    try read(source: source, SourcePath(text: path), readFile: readFile)
  }

  private static func read(source: String, _ file: SourcePath, readFile: @escaping (String) -> String?) throws(Diagnostic)
    -> Rules
  {
    let path = file.given
    let interpreter = Interpreter(readFile: readFile)
    var locations: [[String]: SourceLocation] = [:]
    func relative(_ location: SourceLocation) -> SourceLocation { file.relative(location) ?? location }
    func convert(_ value: Value, _ at: [String]) throws(Diagnostic) -> JSON {
      switch value {
      case let .object(entries, _):
        var out = JSONObject()
        for entry in entries { out[entry.key] = try convert(try interpreter.evaluate(entry), at + [entry.key]) }
        return .object(out)
      case let .array(items, origin):
        var out: [JSON] = []
        for (i, item) in items.enumerated() {
          out.append(try convert(try interpreter.evaluate(item, in: origin.module), at + [String(i)]))
        }
        return .array(out)
      case let .string(s, origin):
        locations[at] = relative(interpreter.location(origin))
        return .string(s)
      case let .number(n, _): return .number(n)
      case let .boolean(b, _): return .bool(b)
      case .null: return .null
      default:
        throw .error(
          .unsupported, "a perms file holds plain data; found \(value.kindDescription) at \(at.joined(separator: "."))",
          at: relative(interpreter.location(value.origin)))
      }
    }
    do throws(Diagnostic) {
      let module = try interpreter.loadModule(path: file.absolute, text: source)
      guard let rules = try interpreter.exportedValue("default", of: module, at: Origin(module: module, offset: 0)) else {
        throw Diagnostic.error(
          .schemaNotFound, "\(path) has no default export; write `export default rules;`",
          at: SourceLocation(file: path, line: 1, column: 1))
      }
      return Rules(json: try convert(rules, []), locations: locations)
    } catch {
      throw file.relative(error)
    }
  }
}
