import InstantCore
import Testing

@testable import InstantLocal

@Suite("query footprints")
struct QueryFootprintTests {
  let attrs = AttrStore([
    Attr(id: "g-id", forward: Ident(id: "1", etype: "goals", label: "id"), unique: true),
    Attr(id: "i-id", forward: Ident(id: "2", etype: "items", label: "id"), unique: true),
    Attr(id: "u-id", forward: Ident(id: "3", etype: "users", label: "id"), unique: true),
    Attr(
      id: "g-todos", forward: Ident(id: "4", etype: "goals", label: "todos"),
      reverse: Ident(id: "5", etype: "items", label: "goal"), valueType: "ref", cardinality: .many),
    Attr(
      id: "i-owner", forward: Ident(id: "6", etype: "items", label: "owner"),
      reverse: Ident(id: "7", etype: "users", label: "items"), valueType: "ref", cardinality: .one),
  ])

  @Test func followsLinksFromChildFormsAndWherePaths() throws {
    #expect(QueryFootprint(["goals": ["todos": [:]]], attrs: attrs).namespaces == ["goals", "items"])
    #expect(QueryFootprint(["goals": ["$": ["where": ["todos.owner.name": "x"]]]], attrs: attrs).namespaces == ["goals", "items", "users"])
    #expect(QueryFootprint(["users": ["items": ["goal": [:]]]], attrs: attrs).namespaces == ["users", "items", "goals"])
    #expect(QueryFootprint(["items": [:]], attrs: attrs).namespaces == ["items"])
  }

  @Test func unrelatedNamespacesDoNotTouchTheQuery() {
    let footprint = QueryFootprint(["goals": [:], "$$ruleParams": ["users": "x"]], attrs: attrs)
    #expect(footprint.mayChange(["goals"]))
    #expect(!footprint.mayChange(["users", "items"]))
  }
}
