import InstantSchema
import Testing

/// Every error names `file:line:column` and says what was expected.
@Suite struct ErrorTests {
  private func message(_ source: String, files: [String: String] = [:]) -> String {
    TestSupport.error(source, files: files)?.description ?? "no error"
  }

  private func entity(_ body: String) -> String {
    TestSupport.schema(entities: "a: i.entity({\n\(body)\n}),")
  }

  @Test func syntaxErrorsNameTheSpotAndTheExpectation() {
    #expect(message(entity("  b: i.string()\n  c: i.string(),")) == "instant.schema.ts:7:3: error: expected `,` or `}` after the property `b`, found `c`")
    #expect(message("const _schema = i.schema({ entities: { a: 'x }) })") == "instant.schema.ts:1:43: error: unterminated string literal: expected a closing '")
    #expect(message("const x = { a: 1 ") == "instant.schema.ts:1:18: error: expected `}` to close the object opened at instant.schema.ts:1:11, found end of file")
    #expect(message("/* never closed") == "instant.schema.ts:1:1: error: unterminated block comment: expected `*/`")
  }

  @Test func unsupportedConstructsAreRefusedByName() {
    #expect(message(entity("  b: cond ? i.string() : i.number(),")) == "instant.schema.ts:6:11: error: a conditional expression (`? :`) is not supported in a schema (at entities.a.b)")
    #expect(message(entity("  [key]: i.string(),")) == "instant.schema.ts:6:3: error: a computed key `[…]:` is not supported in a schema (at entities.a)")
    #expect(message(entity("  b: makeAttr(),")) == "instant.schema.ts:6:6: error: `makeAttr` is not defined in instant.schema.ts; a schema can refer to constants declared or imported in its file (at entities.a.b)")
    #expect(message(entity("  b: `x${y}`,")) == "instant.schema.ts:6:6: error: a template literal with `${…}` is not supported in a schema (at entities.a.b)")
    #expect(message(entity("  b: () => i.string(),")) == "instant.schema.ts:6:6: error: an arrow function is not supported in a schema (at entities.a.b)")
    #expect(message(entity("  b: i.text(),")) == "instant.schema.ts:6:8: error: `i.text` is not an InstantDB schema builder; expected i.string, i.number, i.boolean, i.date, i.json, i.any, i.entity, i.schema or i.graph (at entities.a.b)")
    #expect(message(entity("  b: i.string().default('x'),")) == "instant.schema.ts:6:17: error: unknown modifier `.default()`; expected .optional(), .unique(), .indexed() or .clientRequired() (at entities.a.b)")
    #expect(message(entity("  b: i.string().optional(true),")) == "instant.schema.ts:6:17: error: `.optional()` takes no arguments (at entities.a.b)")
    #expect(message(entity("  b: i.number<5>(),")) == "instant.schema.ts:6:6: error: `i.number` takes no type argument; only `i.json<T>()` and `i.string<T>()` do (at entities.a.b)")
    #expect(message(entity("  b: Object.assign({}, {}),")) == "instant.schema.ts:6:6: error: `Object` is not defined in instant.schema.ts; a schema can refer to constants declared or imported in its file (at entities.a.b)")
  }

  @Test func packageImportsOfSchemaPartsAreRefused() {
    let source = """
      import { i } from "@instantdb/core";
      import { shared } from "my-schema-parts";
      const _schema = i.schema({ entities: { ...shared } });
      export default _schema;
      """
    #expect(message(source) == "instant.schema.ts:3:43: error: schema parts imported from the package \"my-schema-parts\" cannot be read; instant-schema follows relative imports only (move the part into this file or a relative module) (at entities)")
    #expect(message(#"export { default } from "./missing";"#).contains("cannot find the module \"./missing\""))
  }

  @Test func schemaRuleViolations() {
    #expect(message("import { i } from '@instantdb/core';\nexport const x = 1;") == "instant.schema.ts:1:1: error: no `i.schema({ entities, … })` found; expected `const _schema = i.schema({ entities: { … } })` with `export default schema`")
    #expect(message("import { i } from '@instantdb/core';\nexport default i.schema({ entities: {}, extra: {} });") == "instant.schema.ts:2:41: error: unknown key `extra` in `i.schema({ … })`; expected entities, links or rooms (at extra)")
    #expect(message("import { i } from '@instantdb/core';\nexport default i.schema({ links: {} });") == "instant.schema.ts:2:16: error: `i.schema({ … })` has no `entities`; add `entities: { … }`")
    #expect(message(TestSupport.schema(entities: "a: i.entity({}),\na: i.entity({}),")) == "instant.schema.ts:6:1: error: duplicate key `a` (at entities)")
    #expect(message(TestSupport.schema(entities: "a: i.string(),")) == "instant.schema.ts:5:4: error: expected `i.entity({ … })`, found `i.string(…)` (at entities.a)")
    #expect(message(TestSupport.schema(entities: "a: i.entity({ b: 1 }),")) == "instant.schema.ts:5:18: error: expected an attribute such as `i.string()`, `i.number()`, `i.boolean()`, `i.date()`, `i.json()` or `i.any()`, found the number 1 (at entities.a.b)")
    let link = { (side: String) in
      TestSupport.schema(
        entities: "a: i.entity({}),",
        links: "ab: { forward: { on: 'a', has: 'one', label: 'b' }, reverse: { \(side) } },")
    }
    #expect(message(link("on: 'a', has: 'some', label: 'c'")) == "instant.schema.ts:8:78: error: `has` must be \"one\" or \"many\", found \"some\" (at links.ab.reverse.has)")
    #expect(message(link("on: 'zz', has: 'one', label: 'c'")) == "instant.schema.ts:8:5: error: reverse.on names `zz`, which is not declared in `entities`; declare it (for system namespaces: `zz: i.entity({})`) (at links.ab.reverse.on)")
    #expect(message(link("on: 'a', has: 'one', label: 'c', onDelete: 'restrict'")) == "instant.schema.ts:8:107: error: `onDelete` must be \"cascade\", found \"restrict\" (at links.ab.reverse.onDelete)")
    #expect(message(link("on: 'a', has: 'one', lable: 'c'")) == "instant.schema.ts:8:85: error: unknown key `lable` in a link side; expected on, has, label, required or onDelete (at links.ab.reverse.lable)")
    #expect(message(TestSupport.schema(entities: "a: i.entity({}),", rooms: "chat: { topics: {} },")) == "instant.schema.ts:11:7: error: the room needs `presence: i.entity({ … })` (use `i.entity({})` for none) (at rooms.chat)")
  }

  @Test func errorsInImportedModulesNameThatModule() {
    let files = ["/parts.ts": "import { i } from '@instantdb/core';\nexport const parts = {\n  a: i.entity({ b: i.strin() }),\n};"]
    let source = "import { i } from '@instantdb/core';\nimport { parts } from './parts';\nexport default i.schema({ entities: parts });"
    #expect(message(source, files: files) == "/parts.ts:3:22: error: `i.strin` is not an InstantDB schema builder; expected i.string, i.number, i.boolean, i.date, i.json, i.any, i.entity, i.schema or i.graph (at entities.a.b)")
  }
}
