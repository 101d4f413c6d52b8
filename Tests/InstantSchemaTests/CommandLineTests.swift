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

  private func run(_ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
    try await TestSupport.run(InstantSchemaExecutable.url, arguments, in: directory)
  }

  @Test func sampleThenCheckThenForce() async throws {
    try await TestSupport.withTemporaryDirectory { directory in

      let sample = try await run(["sample", "--to", "Generated"], in: directory)
      #expect(sample.status == 0)
      #expect(try String(contentsOf: directory.appendingPathComponent("instant.schema.ts"), encoding: .utf8) == SampleSchema.source)
      #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("Generated/Mutations.swift").path))

      #expect(try await run(["check", "--from", "instant.schema.ts", "--to", "Generated"], in: directory).status == 0)
      try "// stale".write(to: directory.appendingPathComponent("Generated/Links.swift"), atomically: true, encoding: .utf8)
      let stale = try await run(["check", "--from", "instant.schema.ts", "--to", "Generated"], in: directory)
      #expect(stale.status == 1)
      #expect(stale.output.contains("Links.swift in Generated is stale or missing"))

      let unchecked = try await run(["generate", "--from", "instant.schema.ts", "--to", "Generated"], in: directory)
      #expect(unchecked.status != 0)
      #expect(unchecked.output.contains("pass --force"))

      let forced = try await run(["generate", "--from", "instant.schema.ts", "--to", "Generated", "--force"], in: directory)
      #expect(forced.status == 0)
      #expect(forced.output.contains("WARNING: --force"))
      #expect(try await run(["check", "--from", "instant.schema.ts", "--to", "Generated"], in: directory).status == 0)
    }
  }

  @Test func lintReportsErrorsWithTheirLocation() async throws {
    try await TestSupport.withTemporaryDirectory { directory in
      try TestSupport.schema(entities: "a: i.entity({ b: i.strnig() }),").write(
        to: directory.appendingPathComponent("bad.schema.ts"), atomically: true, encoding: .utf8)
      let result = try await run(["lint", "bad.schema.ts"], in: directory)
      #expect(result.status == 1)
      #expect(result.output.contains("bad.schema.ts:5:20: error: `i.strnig` is not an InstantDB schema builder"))
    }
  }

  @Test func schemaErrorsPrintOnceWithoutArgumentParsersPrefix() async throws {
    try await TestSupport.withTemporaryDirectory { directory in
      try TestSupport.schema(entities: "a: i.entity({ b: i.strnig() }),").write(
        to: directory.appendingPathComponent("bad.schema.ts"), atomically: true, encoding: .utf8)
      let result = try await run(["generate", "--from", "bad.schema.ts", "--to", "Generated", "--force"], in: directory)
      #expect(result.status == 1)
      #expect(result.output.contains("\nbad.schema.ts:5:20: error: `i.strnig` is not an InstantDB schema builder"))
      #expect(!result.output.contains("Error:"))
      let missing = try await run(["check", "--from", "missing.schema.ts", "--to", "Generated"], in: directory)
      #expect(missing.status == 1)
      #expect(missing.output.hasPrefix("error: "))
      #expect(!missing.output.contains("Error:"))
    }
  }

  @Test func generateOutsideARepositorySaysSo() async throws {
    try await TestSupport.withTemporaryDirectory { directory in
      try #require(!(await TestSupport.isInsideRepository(directory)), "the temporary directory is inside a git repository")
      try SampleSchema.source.write(to: directory.appendingPathComponent("instant.schema.ts"), atomically: true, encoding: .utf8)
      let result = try await run(["generate", "--from", "instant.schema.ts", "--to", "Generated"], in: directory)
      #expect(result.status == 1)
      #expect(result.output.hasPrefix("error: instant.schema.ts is not inside a git repository"))
      #expect(!result.output.contains("not committed"))
    }
  }

  @Test func aMissingSchemaFileIsSaidToBeMissing() async throws {
    try await TestSupport.withTemporaryDirectory { directory in
      let generate = try await run(["generate", "--from", "nope.ts", "--to", "Generated"], in: directory)
      #expect(generate.status == 1)
      #expect(generate.output.hasPrefix("error: nope.ts does not exist"), "\(generate.output)")
      #expect(!generate.output.contains("commit"), "not a git problem: \(generate.output)")

      let lint = try await run(["lint", "nope.ts"], in: directory)
      #expect(lint.status == 1)
      #expect(lint.output.contains("nope.ts does not exist"), "\(lint.output)")
      #expect(!lint.output.contains("--from"), "lint has no --from: \(lint.output)")
    }
  }
}
