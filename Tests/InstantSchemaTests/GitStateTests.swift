import Foundation
import InstantSchema
import Testing

/// The `generate` rules, checked against a real git repository in a temporary directory.
@Suite struct GitStateTests {
  private func run(_ arguments: [String], in directory: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments
    process.currentDirectoryURL = directory
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    process.waitUntilExit()
  }

  @Test func schemaMustBeCommittedAndOutputClean() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("instant-schema-git-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory.appendingPathComponent("Generated"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try run(["init", "-q"], in: directory)
    let schema = directory.appendingPathComponent("instant.schema.ts").path
    let output = directory.appendingPathComponent("Generated").path
    try SampleSchema.source.write(toFile: schema, atomically: true, encoding: .utf8)

    #expect(throws: SchemaError.self) { try GitState.requireCommitted(schema) }
    try run(["add", "."], in: directory)
    try run(["commit", "-qm", "schema"], in: directory)
    try GitState.requireCommitted(schema)
    try GitState.requireClean(output)

    try (SampleSchema.source + "// edit\n").write(toFile: schema, atomically: true, encoding: .utf8)
    #expect {
      try GitState.requireCommitted(schema)
    } throws: { error in
      (error as? SchemaError)?.message.contains("uncommitted changes") == true
    }

    try "x".write(toFile: output + "/Stray.swift", atomically: true, encoding: .utf8)
    #expect {
      try GitState.requireClean(output)
    } throws: { error in
      (error as? SchemaError)?.message.contains("Stray.swift") == true
    }
  }
}
