import CustomDump
import InstantSchema
import Testing

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
    let parsed = try TestSupport.parse(
      TestSupport.schema(entities: """
        a: i.entity({
          one: i.string().optional().indexed(),
          two: i.number().indexed().unique().optional(),
          three: i.date().unique().unique(),
          four: i
            .json()
            .optional(),
        }),
        """))
    let attributes = parsed.schema.entities[0].attributes
    #expect(attributes.map(\.isOptional) == [true, true, false, true])
    #expect(attributes.map(\.isIndexed) == [true, true, false, false])
    #expect(attributes.map(\.isUnique) == [false, true, true, false])
    #expect(attributes.map(\.valueType) == [.string, .number, .date, .json])
  }

  @Test func acceptsQuotesCommentsTabsCRLFBOMAndNoSemicolons() throws {
    let source = "\u{FEFF}// header\r\nimport { i } from '@instantdb/react'\r\n/* block */\r\nconst _schema = i.schema({\r\n\tentities: {\r\n\t\t\"$users\": i.entity({ email: i.string().unique().indexed() }), // trailing\r\n\t\t'journal-entries': i.entity({ \"content-type\": i.string() })\r\n\t}\r\n})\r\nexport default _schema\r\n"
    let parsed = try TestSupport.parse(source)
    #expect(parsed.schema.entities.map(\.name) == ["$users", "journal-entries"])
    #expect(parsed.schema.entities[1].attributes.map(\.name) == ["content-type"])
  }

  @Test func keepsJSDocAndOwnLineCommentsAsDocumentation() throws {
    let parsed = try TestSupport.parse(
      TestSupport.schema(entities: """
        /**
         * People who post.
         */
        profiles: i.entity({
          // The shown name.
          // Not unique.
          name: i.string(), // not documentation
          // title: i.string(),
          handle: i.string(),
          /** Bio. */ bio: i.string(),
        }),
        """))
    let entity = parsed.schema.entities[0]
    #expect(entity.documentation == "People who post.")
    #expect(entity.attributes.map(\.documentation) == ["The shown name.\nNot unique.", nil, "Bio."])
  }

  @Test func legacyGraphWithThreeArguments() throws {
    let parsed = try TestSupport.parse(
      """
      import { i } from "@instantdb/core";
      const INSTANT_APP_ID = "abc";
      const graph = i.graph(
        INSTANT_APP_ID,
        {
          "goals": i.entity({ "title": i.any() }),
          "todos": i.entity({ "title": i.any() }),
        },
        {
          "goalsTodos": {
            "forward": { "on": "goals", "has": "many", "label": "todos" },
            "reverse": { "on": "todos", "has": "many", "label": "goals" },
          },
        },
      );
      export default graph;
      """)
    #expect(parsed.schema.entities.map(\.name) == ["goals", "todos"])
    #expect(parsed.schema.links.map(\.name) == ["goalsTodos"])
    #expect(parsed.warnings.map(\.message).contains { $0.contains("3-argument") })
  }

  @Test func legacyGraphIgnoresAnEnvironmentAppID() throws {
    let parsed = try TestSupport.parse(
      """
      import { i } from "@instantdb/react";
      const graph = i.graph(process.env.INSTANT_APP_ID!, { notes: i.entity({ text: i.any() }) }, {});
      export default graph;
      """)
    #expect(parsed.schema.entities.map(\.name) == ["notes"])
  }

  @Test func findsTheSchemaWithoutADefaultExportAndFollowsAliases() throws {
    let withoutDefault = try TestSupport.parse(
      """
      import { i as b } from "@instantdb/admin";
      export const schema = b.schema({ entities: { notes: b.entity({ text: b.string() }) } });
      """)
    #expect(withoutDefault.schema.entities.map(\.name) == ["notes"])
    let aliased = try TestSupport.parse(
      """
      import * as instant from "@instantdb/core";
      const base = instant.i.schema({ entities: { notes: instant.i.entity({}) } });
      const schema = base;
      export { schema as default };
      """)
    #expect(aliased.schema.entities.map(\.name) == ["notes"])
  }

  @Test func skipsTypesInterfacesAndRuntimeCode() throws {
    let parsed = try TestSupport.parse(
      """
      import { i, init, InstaQLEntity } from "@instantdb/react";
      import "dotenv/config";
      export type Todo = InstaQLEntity<AppSchema, "todos">;
      function helper(x: number) { return x > 1 ? "a" : `b${x}`; }
      const _schema = i.schema({ entities: { todos: i.entity({ title: i.string() }) }, rooms: {} });
      type _AppSchema = typeof _schema;
      interface AppSchema extends _AppSchema {}
      const schema: AppSchema = _schema;
      const db = init({ appId: process.env.APP_ID!, schema });
      db.transact(db.tx.todos[id()].update({ title: "x" }));
      export type { AppSchema };
      export default schema;
      """)
    #expect(parsed.schema.entities.map(\.name) == ["todos"])
  }

  @Test func skipsRegularExpressionsInRuntimeCode() throws {
    let parsed = try TestSupport.parse(
      #"""
      import { i } from "@instantdb/core";
      const slug = (s: string) => s.replace(/[^a-z0-9'"]+/gi, "-").split(/\//).length / 2;
      const _schema = i.schema({ entities: { notes: i.entity({ text: i.string() }) } });
      export default _schema;
      """#)
    #expect(parsed.schema.entities.map(\.name) == ["notes"])
  }

  @Test func followsRelativeImportsSpreadsAndMemberAccess() throws {
    let files = [
      "/parts/base.ts": """
        import { i } from "@instantdb/core";
        const shared = { createdAt: i.date(), updatedAt: i.date().optional() };
        export const base = i.schema({
          entities: { posts: i.entity({ ...shared, title: i.string() }) },
          links: {},
        });
        """,
      "/parts/comments.ts": """
        import { i } from "@instantdb/core";
        export default {
          entities: { comments: i.entity({ body: i.string() }) },
          links: {
            postComments: {
              forward: { on: "comments", has: "one", label: "post" },
              reverse: { on: "posts", has: "many", label: "comments" },
            },
          } as const,
        };
        """,
      "/parts/index.ts": """
        export { base } from "./base";
        export { default as comments } from "./comments";
        """,
    ]
    let parsed = try TestSupport.parse(
      """
      import { i } from "@instantdb/core";
      import { base, comments } from "./parts";
      const _schema = i.schema({
        entities: { ...base.entities, ...comments.entities },
        links: { ...comments.links },
      });
      export default _schema;
      """,
      files: files)
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
      """
      import { i } from "@instantdb/core";
      import type { Remote } from "./types";
      type Status = "open" | "closed";
      const _schema = i.schema({
        entities: {
          items: i.entity({
            status: i.string<Status>(),
            inline: i.string<'a' | "b">(),
            list: i.json<Array<Array<number>>>(),
            map: i.json<{ [key: string]: boolean }>(),
            shape: i.json<{
              // comment inside a type
              a?: string | null;
              b: { c: number }[],
            }>(),
            remote: i.json<Remote>(),
            fn: i.json<(x: number) => string>(),
          }),
        },
      });
      export default _schema;
      """,
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
    let parsed = try TestSupport.parse(
      TestSupport.schema(
        entities: """
          $users: i.entity({ email: i.string().unique().indexed() }),
          profiles: i.entity({}),
          """,
        links: """
          profileUser: {
            forward: { on: "profiles", has: "one", label: "$user", required: true, onDelete: "cascade" },
            reverse: { on: "$users", has: "one", label: "profile", onDelete: "cascade", required: true },
          },
          """,
        rooms: """
          doc: {
            presence: i.entity({ cursor: i.json<{ x: number; y: number }>().optional() }),
            topics: { ping: i.entity({ at: i.number() }), empty: i.entity({}) },
          },
          """))
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
  }

  @Test func withRoomSchemaAndAsTypeAreAcceptedWithWarnings() throws {
    let parsed = try TestSupport.parse(
      """
      import { i } from "@instantdb/core";
      const graph = i.graph({ a: i.entity({}).asType<{ x: string }>() }, {}).withRoomSchema<Rooms>();
      export default graph;
      """)
    #expect(parsed.schema.entities.map(\.name) == ["a"])
    #expect(parsed.warnings.count == 3)
  }
}
