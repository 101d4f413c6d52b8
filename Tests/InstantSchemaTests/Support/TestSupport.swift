import Foundation
import InstantSchema
import Testing

/// Paths and helpers shared by the tests.
enum TestSupport {
  static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  static let schemasDirectory = testsDirectory.appendingPathComponent("Schemas")
  static let snapshotsDirectory = testsDirectory.appendingPathComponent("__Snapshots__")
  static let fixtureDirectory = testsDirectory.deletingLastPathComponent().appendingPathComponent("InstantSchemaFixture")

  /// Parses `source` as `instant.schema.ts`, with `files` available to relative imports
  /// (keyed by absolute path, for example `/types.ts`).
  static func parse(_ source: String, files: [String: String] = [:]) throws(SchemaError) -> ParsedSchema {
    try InstantSchemaParser.parse(source: source, path: "instant.schema.ts") { files[$0] }
  }

  /// The error `source` fails with, or `nil` if it parses.
  static func error(_ source: String, files: [String: String] = [:]) -> SchemaError? {
    do {
      _ = try parse(source, files: files)
      return nil
    } catch {
      return error
    }
  }

  /// Wraps entity declarations in a minimal schema file.
  static func schema(entities: String, links: String = "", rooms: String = "") -> String {
    """
    import { i } from "@instantdb/core";

    const _schema = i.schema({
      entities: {
    \(entities)
      },
      links: {
    \(links)
      },
      rooms: {
    \(rooms)
      },
    });

    export default _schema;

    """
  }

  /// Compares `files` with the snapshots in `__Snapshots__/<name>/`; with
  /// `INSTANT_SCHEMA_RECORD=1` (or when a snapshot is missing) writes them instead.
  static func assertSnapshots(_ files: [GeneratedFile], named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let directory = snapshotsDirectory.appendingPathComponent(name)
    let record = ProcessInfo.processInfo.environment["INSTANT_SCHEMA_RECORD"] == "1"
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for file in files {
      let url = directory.appendingPathComponent(file.name + ".txt")
      guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
        try file.contents.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("Recorded snapshot \(name)/\(file.name).txt; run the tests again", sourceLocation: sourceLocation)
        continue
      }
      #expect(file.contents == expected, "\(name)/\(file.name) differs from its snapshot; rerun with INSTANT_SCHEMA_RECORD=1 if the change is intended", sourceLocation: sourceLocation)
    }
  }
}
