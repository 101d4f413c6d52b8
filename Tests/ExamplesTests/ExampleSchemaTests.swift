import Foundation
import InstantSchema
import Testing

/// The demos' generated Swift stays what the generator writes for their schema today.
@Suite("Examples schema")
struct ExampleSchemaTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/Schema")

  @Test("Examples/Schema/Generated matches instant-schema's output for Examples/Schema/instant.schema.ts")
  func generatedCodeIsCurrent() throws {
    let parsed = try InstantSchemaParser.parse(fileAt: Self.directory.appendingPathComponent("instant.schema.ts").path)
    let output = SwiftGenerator(for: parsed).generate(parsed.schema)
    #expect(output.files.count == 5)
    let stale = GeneratedFiles.stale(output.files, in: Self.directory.appendingPathComponent("Generated").path)
    #expect(
      stale.isEmpty,
      "Regenerate: swift run instant-schema plugin-generate --from Examples/Schema/instant.schema.ts --to Examples/Schema/Generated")
  }

  @Test("The demos' schema keeps the sample schema's todos and chat presence, as instant-schema sample writes them")
  func keepsTheSampleSchema() throws {
    let demos = try InstantSchemaParser.parse(fileAt: Self.directory.appendingPathComponent("instant.schema.ts").path).schema
    let sample = try InstantSchemaParser.parse(source: SampleSchema.source).schema
    #expect(demos.entity(named: "todos") == sample.entity(named: "todos"))
    let chat = try #require(demos.rooms.first { $0.name == "chat" })
    let sampleChat = try #require(sample.rooms.first { $0.name == "chat" })
    #expect(chat.presence == sampleChat.presence)
  }
}
