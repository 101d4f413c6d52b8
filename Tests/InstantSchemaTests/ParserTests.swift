import CustomDump
import InstantSchema
import Testing
import InstantCore

@Suite struct ParserTests {
  @Test func readsTheREADMESchema() throws {
    let parsed = try TestSupport.parse(SampleSchema.source)
    expectNoDifference(
      parsed.schema,
      InstantSchemaDefinition(
        entities: [
          EntityDefinition(
            name: "todos",
            attributes: [
              AttributeDefinition(name: "title", valueType: .string),
              AttributeDefinition(name: "done", valueType: .boolean),
              AttributeDefinition(name: "createdAt", valueType: .number, isIndexed: true),
            ],
            documentation: "Something to do.")
        ],
        rooms: [
          RoomDefinition(
            name: "chat",
            presence: EntityDefinition(
              name: "presence",
              attributes: [
                AttributeDefinition(name: "name", valueType: .string),
                AttributeDefinition(name: "color", valueType: .string),
                AttributeDefinition(name: "isTyping", valueType: .boolean),
              ]))
        ]))
    #expect(parsed.warnings.isEmpty)
    #expect(parsed.sourceName == "instant.schema.ts")
    #expect(parsed.sourceHash.count == 64)
  }

  @Test func modifiersInAnyOrderAndRepeated() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("parser/modifiers.schema.ts"))
    let attributes = parsed.schema.entities[0].attributes
    #expect(attributes.map(\.isOptional) == [true, true, false, true])
    #expect(attributes.map(\.isIndexed) == [true, true, false, false])
    #expect(attributes.map(\.isUnique) == [false, true, true, false])
    #expect(attributes.map(\.valueType) == [.string, .number, .date, .json])
  }

  @Test func acceptsQuotesCommentsTabsCRLFBOMAndNoSemicolons() throws {
    let lines = [
      "\u{FEFF}// header", "import { i } from '@instantdb/react'", "/* block */", "const _schema = i.schema({",
      "\tentities: {", "\t\t\"$users\": i.entity({ email: i.string().unique().indexed() }), // trailing",
      "\t\t'journal-entries': i.entity({ \"content-type\": i.string() })", "\t}", "})", "export default _schema", "",
    ]
    let source = lines.joined(separator: "\r\n")
    let parsed = try TestSupport.parse(source)
    #expect(parsed.schema.entities.map(\.name) == ["$users", "journal-entries"])
    #expect(parsed.schema.entities[1].attributes.map(\.name) == ["content-type"])
  }

  @Test func keepsJSDocAndOwnLineCommentsAsDocumentation() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("parser/documentation-comments.schema.ts"))
    let entity = parsed.schema.entities[0]
    #expect(entity.documentation == "People who post.")
    #expect(entity.attributes.map(\.documentation) == ["The shown name.\nNot unique.", nil, "Bio."])
  }

  @Test func legacyGraphWithThreeArguments() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("parser/legacy-graph-three-arguments.schema.ts"))
    #expect(parsed.schema.entities.map(\.name) == ["goals", "todos"])
    #expect(parsed.schema.links.map(\.name) == ["goalsTodos"])
    #expect(parsed.warnings.map(\.message).contains { $0.contains("3-argument") })
  }

  @Test func legacyGraphIgnoresAnEnvironmentAppID() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("parser/legacy-graph-environment-app-id.schema.ts"))
    #expect(parsed.schema.entities.map(\.name) == ["notes"])
  }

  @Test func findsTheSchemaWithoutADefaultExportAndFollowsAliases() throws {
    let withoutDefault = try TestSupport.parse(TestSupport.fixture("parser/named-export.schema.ts"))
    #expect(withoutDefault.schema.entities.map(\.name) == ["notes"])
    let aliased = try TestSupport.parse(TestSupport.fixture("parser/namespace-import-alias.schema.ts"))
    #expect(aliased.schema.entities.map(\.name) == ["notes"])
  }

  @Test func skipsTypesInterfacesAndRuntimeCode() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("parser/runtime-code.schema.ts"))
    #expect(parsed.schema.entities.map(\.name) == ["todos"])
  }

  @Test func skipsRegularExpressionsInRuntimeCode() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("parser/regular-expressions.schema.ts"))
    #expect(parsed.schema.entities.map(\.name) == ["notes"])
  }

  @Test func followsRelativeImportsSpreadsAndMemberAccess() throws {
    let files = try TestSupport.fixtureFiles("parser/relative-imports")
    let parsed = try TestSupport.parse(files["/instant.schema.ts"] ?? "", files: files)
    #expect(parsed.schema.entities.map(\.name) == ["posts", "comments"])
    #expect(parsed.schema.entities[0].attributes.map(\.name) == ["createdAt", "updatedAt", "title"])
    #expect(parsed.schema.links.map(\.forward.label) == ["post"])
    #expect(parsed.files == ["/instant.schema.ts", "/parts/index.ts", "/parts/base.ts", "/parts/comments.ts"])
  }

  @Test func followsADefaultReExportShim() throws {
    let parsed = try TestSupport.parse(
      #"export { default } from "./instant/schema";"#,
      files: ["/instant/schema.ts": TestSupport.schema(entities: "notes: i.entity({}),")])
    #expect(parsed.schema.entities.map(\.name) == ["notes"])
  }

  @Test func typeArgumentsAreParsedAndResolved() throws {
    let parsed = try TestSupport.parse(
      try TestSupport.fixture("parser/type-arguments.schema.ts"),
      files: ["/types.ts": "export type Remote = { url: string };"])
    let types = parsed.schema.entities[0].attributes.map(\.typeArgument)
    #expect(types[0] == .alias("Status", .union([.stringLiteral("open"), .stringLiteral("closed")])))
    #expect(types[1] == .union([.stringLiteral("a"), .stringLiteral("b")]))
    #expect(types[2] == .array(.array(.number)))
    #expect(types[3] == .record(.boolean))
    #expect(
      types[4]
        == .object([
          TypeMember(name: "a", isOptional: true, type: .union([.string, .null]), documentation: "comment inside a type"),
          TypeMember(name: "b", isOptional: false, type: .array(.object([TypeMember(name: "c", isOptional: false, type: .number)]))),
        ]))
    #expect(types[5] == .alias("Remote", .object([TypeMember(name: "url", isOptional: false, type: .string)])))
    if case .opaque = types[6] {} else { Issue.record("a function type should be opaque") }
    #expect(parsed.schema.entities[0].attributes[2].typeArgumentText == "Array<Array<number>>")
  }

  @Test func linksAndRoomsWithEveryKey() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("parser/links-and-rooms.schema.ts"))
    let link = parsed.schema.links[0]
    #expect(link.forward == .init(namespace: "profiles", has: .one, label: "$user", isRequired: true, cascadesOnDelete: true))
    #expect(link.reverse == .init(namespace: "$users", has: .one, label: "profile", isRequired: false, cascadesOnDelete: true))
    #expect(parsed.warnings.map(\.schemaPath).contains("links.profileUser.reverse.required"))
    #expect(parsed.schema.rooms[0].topics.map(\.name) == ["ping", "empty"])
  }

  @Test func dropsAnExplicitIdWithAWarning() throws {
    let parsed = try TestSupport.parse(TestSupport.schema(entities: "a: i.entity({ id: i.string().unique(), b: i.string() }),"))
    #expect(parsed.schema.entities[0].attributes.map(\.name) == ["b"])
    #expect(parsed.warnings.first?.schemaPath == "entities.a.id")
    #expect(parsed.warnings.first?.severity == .warning)
    #expect(
      parsed.warnings.first?.description
        == "instant.schema.ts:5:15: warning: `id` is implicit on every entity; the declared `id` attribute is dropped (at entities.a.id)")
  }

  @Test func withRoomSchemaAndAsTypeAreAcceptedWithWarnings() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("parser/with-room-schema.schema.ts"))
    #expect(parsed.schema.entities.map(\.name) == ["a"])
    #expect(parsed.warnings.count == 3)
  }
}
