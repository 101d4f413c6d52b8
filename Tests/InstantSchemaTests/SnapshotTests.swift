import Foundation
import InstantSchema
import Testing
import InstantCore

/// The five generated files for schemas written for these tests, compared with the files in
/// `__Snapshots__` (record with `INSTANT_SCHEMA_RECORD=1`).
@Suite struct SnapshotTests {
  private func generate(_ path: String) throws -> SwiftGenerator.Output {
    let parsed = try InstantSchemaParser.parse(fileAt: TestSupport.schemasDirectory.appendingPathComponent(path).path)
    return SwiftGenerator(for: parsed).generate(parsed.schema)
  }

  @Test func sample() throws {
    let parsed = try TestSupport.parse(SampleSchema.source)
    try TestSupport.assertSnapshots(SwiftGenerator(for: parsed).generate(parsed.schema).files, named: "sample")
  }

  @Test func legacyGraph() throws {
    try TestSupport.assertSnapshots(try generate("legacy-graph.schema.ts").files, named: "legacy-graph")
  }

  @Test func multiFile() throws {
    let output = try generate("multi-file/instant.schema.ts")
    try TestSupport.assertSnapshots(output.files, named: "multi-file")
    #expect(output.warnings.isEmpty)
  }

  @Test func pullResponse() throws {
    let data = try Data(contentsOf: TestSupport.schemasDirectory.appendingPathComponent("pull-response.json"))
    let schema = try SchemaPull.schema(fromPullResponse: data)
    #expect(schema.entities.map(\.name) == ["$users", "todos"])
    #expect(schema.entities[1].attributes.map(\.name) == ["dueAt", "meta", "title"])
    #expect(schema.entities[1].attributes.map(\.valueType) == [.date, .any, .string])
    #expect(schema.entities[1].attributes.map(\.isOptional) == [true, true, false])
    #expect(schema.links.map(\.name) == ["todosOwner"])
    #expect(schema.links[0].forward == .init(namespace: "todos", has: .one, label: "owner", isRequired: true, cascadesOnDelete: true))
    #expect(schema.links[0].reverse == .init(namespace: "$users", has: .many, label: "todos"))
    let output = SwiftGenerator(sourceName: "pull-response.json", sourceHash: SchemaPull.hash(of: data)).generate(schema)
    try TestSupport.assertSnapshots(output.files, named: "pull-response")
  }

  @Test func generationIsDeterministic() throws {
    let source = SchemaBenchmark.makeSchema(entityCount: 5)
    let first = try TestSupport.parse(source)
    let second = try TestSupport.parse(source)
    #expect(SwiftGenerator(for: first).generate(first.schema) == SwiftGenerator(for: second).generate(second.schema))
  }
}
