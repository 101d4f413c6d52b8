import Foundation
import InstantSchema
import Testing

/// Every error names `file:line:column` and says what was expected.
///
/// The cases are the named fixtures in `Schemas/errors/cases.json`: a whole `source`, or the part
/// of a minimal schema that differs (the `attributes` of an entity `a`, the `entities` and
/// `rooms`, or the `reverse` side of a link `ab` from `a`), optional imported `files`, and the
/// exact `error` the schema must fail with.
@Suite struct ErrorTests {
  struct Case: Decodable, Sendable, CustomTestStringConvertible {
    var name: String
    var source: String?
    var attributes: String?
    var entities: String?
    var rooms: String?
    var reverse: String?
    var files: [String: String]?
    var error: String

    var testDescription: String { name }

    /// The schema file the case describes.
    var schema: String {
      if let source { return source }
      if let attributes { return TestSupport.schema(entities: "a: i.entity({\n\(attributes)\n}),") }
      if let reverse {
        return TestSupport.schema(
          entities: "a: i.entity({}),",
          links: "ab: { forward: { on: 'a', has: 'one', label: 'b' }, reverse: { \(reverse) } },")
      }
      return TestSupport.schema(entities: entities ?? "", rooms: rooms ?? "")
    }
  }

  static let path = "errors/cases.json"
  static let cases = (try? TestSupport.fixture([Case].self, path)) ?? []

  @Test func theCasesLoad() throws {
    #expect(try !TestSupport.fixture([Case].self, Self.path).isEmpty)
  }

  @Test(arguments: cases) func failsWithItsError(_ example: Case) {
    let error = TestSupport.error(example.schema, files: example.files ?? [:])
    #expect(error?.description == example.error)
    #expect(error?.severity == .error)
  }

  @Test func aMissingModuleIsNamed() {
    let error = TestSupport.error(#"export { default } from "./missing";"#)
    #expect(error?.description.contains("cannot find the module \"./missing\"") == true)
  }
}
