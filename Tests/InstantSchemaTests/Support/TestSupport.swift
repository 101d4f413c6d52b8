import Foundation
import InstantSchema
import Testing
import TestSupport

/// Paths and helpers shared by the tests.
enum TestSupport {
  static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  static let schemasDirectory = testsDirectory.appendingPathComponent("Schemas")
  static let snapshotsDirectory = testsDirectory.appendingPathComponent("__Snapshots__")
  static let fixtureDirectory = testsDirectory.deletingLastPathComponent().appendingPathComponent("InstantSchemaFixture")

  /// The text of the fixture at `path` under `Schemas/`, for example `parser/modifiers.schema.ts`.
  static func fixture(_ path: String) throws -> String {
    try String(contentsOf: schemasDirectory.appendingPathComponent(path), encoding: .utf8)
  }

  /// Every file under the fixture directory `directory`, keyed by its path inside it as an
  /// absolute path (`/parts/base.ts`), the way ``parse(_:files:)`` takes relative imports.
  static func fixtureFiles(_ directory: String) throws -> [String: String] {
    let root = schemasDirectory.appendingPathComponent(directory).standardizedFileURL
    var files: [String: String] = [:]
    for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) ?? .init()
    where !url.hasDirectoryPath {
      let relative = url.standardizedFileURL.path.dropFirst(root.path.count)
      files[String(relative)] = try String(contentsOf: url, encoding: .utf8)
    }
    return files
  }

  /// Decodes the JSON fixture at `path` under `Schemas/`.
  static func fixture<Value: Decodable>(_ type: Value.Type, _ path: String) throws -> Value {
    try JSONDecoder().decode(type, from: Data(fixture(path).utf8))
  }

  /// Runs `body` with a new empty directory, removed afterwards.
  static func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("instant-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
  }

  /// Runs `executable` in `directory`, returning its exit status and its standard output and
  /// error together.
  static func run(_ executable: URL?, _ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
    try await runToEnd(try #require(executable), arguments, in: directory)
  }

  /// Runs `git` from the path in `directory`, as a test user.
  @discardableResult
  static func git(_ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
    let identity = ["-c", "user.name=Test", "-c", "user.email=test@example.com"]
    return try await run(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + identity + arguments, in: directory)
  }

  /// Whether git sees `directory` as part of a work tree (a test outside a repository needs one
  /// that is not).
  static func isInsideRepository(_ directory: URL) async -> Bool {
    (try? await git(["rev-parse", "--is-inside-work-tree"], in: directory).status) == 0
  }

  /// Parses `source` as `instant.schema.ts`, with `files` available to relative imports
  /// (keyed by absolute path, for example `/types.ts`).
  static func parse(_ source: String, files: [String: String] = [:]) throws(Diagnostic) -> ParsedSchema {
    try InstantSchemaParser.parse(source: source, path: "instant.schema.ts") { files[$0] }
  }

  /// The error `source` fails with, or `nil` if it parses.
  static func error(_ source: String, files: [String: String] = [:]) -> Diagnostic? {
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
