import Foundation
import InstantSchema
import Testing

/// The built `instant-schema`, found in the build products directory that holds the test bundle.
enum InstantSchemaExecutable {
  static let url: URL? = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("instant-schema")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return nil
  }()
}

/// Runs the built `instant-schema` executable, as a user would.
@Suite(.enabled(if: InstantSchemaExecutable.url != nil, "the instant-schema executable was not found next to the test bundle"))
struct CommandLineTests {

  private func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = InstantSchemaExecutable.url
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func sampleThenCheckThenForce() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("instant-schema-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let sample = try run(["sample", "--to", "Generated"], in: directory)
    #expect(sample.status == 0)
    #expect(try String(contentsOf: directory.appendingPathComponent("instant.schema.ts"), encoding: .utf8) == SampleSchema.source)
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("Generated/Mutations.swift").path))

    #expect(try run(["check", "--from", "instant.schema.ts", "--to", "Generated"], in: directory).status == 0)
    try "// stale".write(to: directory.appendingPathComponent("Generated/Links.swift"), atomically: true, encoding: .utf8)
    let stale = try run(["check", "--from", "instant.schema.ts", "--to", "Generated"], in: directory)
    #expect(stale.status == 1)
    #expect(stale.output.contains("Links.swift in Generated is stale or missing"))

    let unchecked = try run(["generate", "--from", "instant.schema.ts", "--to", "Generated"], in: directory)
    #expect(unchecked.status != 0)
    #expect(unchecked.output.contains("pass --force"))

    let forced = try run(["generate", "--from", "instant.schema.ts", "--to", "Generated", "--force"], in: directory)
    #expect(forced.status == 0)
    #expect(forced.output.contains("WARNING: --force"))
    #expect(try run(["check", "--from", "instant.schema.ts", "--to", "Generated"], in: directory).status == 0)
  }

  @Test func lintReportsErrorsWithTheirLocation() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("instant-schema-lint-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try TestSupport.schema(entities: "a: i.entity({ b: i.strnig() }),").write(
      to: directory.appendingPathComponent("bad.schema.ts"), atomically: true, encoding: .utf8)
    let result = try run(["lint", "bad.schema.ts"], in: directory)
    #expect(result.status == 1)
    #expect(result.output.contains("bad.schema.ts:5:20: error: `i.strnig` is not an InstantDB schema builder"))
  }
}
