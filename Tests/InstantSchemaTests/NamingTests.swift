@testable import InstantSchema
import Testing

@Suite struct NamingTests {
  @Test(arguments: [
    ("todos", "todo"), ("categories", "category"), ("boxes", "box"), ("classes", "class"), ("people", "person"),
    ("statuses", "status"), ("houses", "house"), ("status", "status"), ("movies", "movie"), ("data", "data"),
    ("journal-entries", "journal-entry"), ("userProfiles", "userProfile"), ("teamMembers", "teamMember"),
    ("matches", "match"), ("analysis", "analysis"), ("olives", "olive"), ("series", "series"), ("topics", "topic"),
  ])
  func singular(plural: String, singular: String) {
    #expect(SwiftNaming.singular(plural) == singular)
  }

  @Test func typeNamesAvoidSwiftAndFoundation() {
    #expect(SwiftNaming.entityTypeName(for: "$users") == "InstantUser")
    #expect(SwiftNaming.entityTypeName(for: "journal-entries") == "JournalEntry")
    #expect(SwiftNaming.entityTypeName(for: "user_profiles") == "UserProfile")
    for name in ["Task", "Date", "Data", "URL", "Text", "List", "Schema", "Set", "Error"] {
      #expect(SwiftNaming.reservedTypeNames.contains(name))
    }
  }

  @Test func propertyNames() {
    #expect(SwiftNaming.lowerCamel("content-type") == "contentType")
    #expect(SwiftNaming.lowerCamel("created_at") == "createdAt")
    #expect(SwiftNaming.lowerCamel("disabled?") == "disabled")
    #expect(SwiftNaming.lowerCamel("$user") == "user")
    #expect(SwiftNaming.lowerCamel("URLPath") == "urlPath")
    #expect(SwiftNaming.lowerCamel("imageURL") == "imageURL")
    #expect(SwiftNaming.lowerCamel("2fa") == "_2fa")
    #expect(SwiftNaming.escaped("class") == "`class`")
    #expect(SwiftNaming.keyName(for: "$files") == "instantFiles")
  }

  @Test func clashingNamesAreNumberedAndReported() throws {
    let parsed = try TestSupport.parse(TestSupport.fixture("naming/clashing-names.schema.ts"))
    let output = SwiftGenerator(for: parsed).generate(parsed.schema)
    let entities = output.files[0].contents
    #expect(entities.contains("public struct TaskEntity:"))
    #expect(entities.contains("public struct TaskEntity2:"))
    #expect(entities.contains("public struct Person:"))
    #expect(entities.contains("public struct Persons:"))
    #expect(entities.contains("public var dueAt2: String"))
    #expect(entities.contains("case dueAt2 = \"dueAt\""))
    #expect(output.warnings.map(\.schemaPath).contains("entities.tasks.dueAt"))
    let located = SwiftGenerator(for: parsed).generate(parsed).warnings.first { $0.schemaPath == "entities.tasks.dueAt" }
    #expect(located?.location == SourceLocation(file: "instant.schema.ts", line: 5, column: 45))
  }

  @Test func aLinkLabelThatIsAlsoAnAttributeGetsNoProperty() throws {
    let parsed = try TestSupport.parse(
      TestSupport.schema(
        entities: "receivers: i.entity({ kudos: i.string() }),\nkudos: i.entity({}),",
        links: "receiverKudos: { forward: { on: 'receivers', has: 'one', label: 'kudos' }, reverse: { on: 'kudos', has: 'many', label: 'receivers' } },"))
    #expect(parsed.warnings.map(\.schemaPath) == ["links.receiverKudos.forward.label"])
    let output = SwiftGenerator(for: parsed).generate(parsed.schema)
    #expect(output.warnings.map(\.schemaPath) == ["links.receiverKudos"])
    #expect(output.files[0].contents.contains("public var kudos: String\n"))
    #expect(!output.files[0].contents.contains("kudos2"))
  }
}

@Suite("Foundation in generated files")
struct FoundationAccessTests {
  @Test("a file that names a Foundation type as a whole word imports Foundation publicly")
  func wholeWords() {
    for text in ["let d: Date", "var x: [UUID]", "(URL)", "Data", "x: Decimal?"] {
      #expect(SwiftGenerator.namesFoundationType(text.utf8), "\(text)")
    }
    for text in ["Dated", "MetaData", "myURL", "UUIDs", "decimal", "DataSource", ""] {
      #expect(!SwiftGenerator.namesFoundationType(text.utf8), "\(text)")
    }
  }

  @Test("only the header's marker is rewritten")
  func marker() {
    let file = SwiftGenerator.foundationImportMarker + "\npublic struct T { var d: Date }\n// \(SwiftGenerator.foundationImportMarker)\n"
    let out = SwiftGenerator.foundationAccess(file)
    #expect(out.hasPrefix("public import Foundation\n"))
    #expect(out.hasSuffix("// \(SwiftGenerator.foundationImportMarker)\n"))
  }
}
