import Foundation
import InstantSchema
import Testing

@Suite struct SupportTests {
  @Test func sourceHashIsSHA256() throws {
    let parsed = try InstantSchemaParser.parse(source: SampleSchema.source)
    #expect(parsed.sourceHash == SchemaPull.hash(of: Data(SampleSchema.source.utf8)))
    #expect(SchemaPull.hash(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SchemaPull.hash(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  @Test func staleFilesAreReportedAndWritesSkipUnchangedFiles() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("instant-schema-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let parsed = try InstantSchemaParser.parse(source: SampleSchema.source)
    let files = SwiftGenerator(for: parsed).generate(parsed.schema).files
    #expect(GeneratedFiles.stale(files, in: directory) == SwiftGenerator.fileNames)
    #expect(try GeneratedFiles.write(files, to: directory) == SwiftGenerator.fileNames)
    #expect(GeneratedFiles.stale(files, in: directory).isEmpty)
    #expect(try GeneratedFiles.write(files, to: directory).isEmpty)
    try "// edited".write(toFile: directory + "/Rooms.swift", atomically: true, encoding: .utf8)
    #expect(GeneratedFiles.stale(files, in: directory) == ["Rooms.swift"])
  }

  @Test func benchmarkSchemaHasTheAdvertisedSize() throws {
    let source = SchemaBenchmark.makeSchema()
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    #expect((1_350...1_500).contains(lines))
    let parsed = try InstantSchemaParser.parse(source: source)
    #expect(parsed.schema.entities.count == 70)
  }
}
