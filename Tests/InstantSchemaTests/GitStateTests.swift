import Foundation
import InstantSchema
import Testing

/// The `generate` rules, checked against a real git repository in a temporary directory.
@Suite struct GitStateTests {
  @Test func schemaMustBeCommittedAndOutputClean() async throws {
    try await TestSupport.withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(at: directory.appendingPathComponent("Generated"), withIntermediateDirectories: true)
      try await TestSupport.git(["init", "-q"], in: directory)
      let schema = directory.appendingPathComponent("instant.schema.ts").path
      let output = directory.appendingPathComponent("Generated").path
      try SampleSchema.source.write(toFile: schema, atomically: true, encoding: .utf8)

      #expect(throws: Diagnostic.self) { try GitState.requireCommitted(schema) }
      try await TestSupport.git(["add", "."], in: directory)
      try await TestSupport.git(["commit", "-qm", "schema"], in: directory)
      try GitState.requireCommitted(schema)
      try GitState.requireClean(output)

      try (SampleSchema.source + "// edit\n").write(toFile: schema, atomically: true, encoding: .utf8)
      #expect {
        try GitState.requireCommitted(schema)
      } throws: { error in
        (error as? Diagnostic)?.message.contains("uncommitted changes") == true
      }

      try "x".write(toFile: output + "/Stray.swift", atomically: true, encoding: .utf8)
      #expect {
        try GitState.requireClean(output)
      } throws: { error in
        (error as? Diagnostic)?.message.contains("Stray.swift") == true
      }
    }
  }

  @Test func outsideARepositoryBothChecksSaySo() async throws {
    try await TestSupport.withTemporaryDirectory { directory in
      try #require(!(await TestSupport.isInsideRepository(directory)), "the temporary directory is inside a git repository")
      let schema = directory.appendingPathComponent("instant.schema.ts").path
      try SampleSchema.source.write(toFile: schema, atomically: true, encoding: .utf8)
      for check in [{ try GitState.requireCommitted(schema) }, { try GitState.requireClean(directory.appendingPathComponent("Generated").path) }] {
        #expect {
          try check()
        } throws: { error in
          let message = (error as? Diagnostic)?.message ?? ""
          return message.contains("is not inside a git repository") && message.contains("git init") && !message.contains("not committed")
        }
      }
    }
  }
}
