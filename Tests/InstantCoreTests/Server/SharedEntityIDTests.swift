import Testing
@testable import InstantCore

/// One entity id in two namespaces (InstantDB's own sample app, zeneca, gives each `users` row the
/// id of its `$users` row): each namespace's form shows that namespace's attrs, whichever other
/// namespaces the query names, on the server and on a client evaluating the server's triples.
struct SharedEntityIDTests {
  static func store() -> TripleStore {
    let attrs = AttrStore([
      Attr(id: "u-id", forward: Ident(id: "fu-id", etype: "users", label: "id"), unique: true, indexed: true),
      Attr(id: "u-email", forward: Ident(id: "fu-email", etype: "users", label: "email"), unique: true, indexed: true),
      Attr(id: "u-handle", forward: Ident(id: "fu-handle", etype: "users", label: "handle")),
      Attr(id: "s-id", forward: Ident(id: "fs-id", etype: "$users", label: "id"), unique: true, indexed: true),
      Attr(id: "s-email", forward: Ident(id: "fs-email", etype: "$users", label: "email"), unique: true, indexed: true),
    ])
    let e = "1c774801-bdb5-459b-bb04-07f7964a7e77"
    return TripleStore(
      attrs: attrs,
      triples: [
        Triple(e, "u-id", .string(e), 1), Triple(e, "u-email", "stopa@example.com", 1), Triple(e, "u-handle", "stopa", 1),
        Triple(e, "s-id", .string(e), 2), Triple(e, "s-email", "stopa@example.com", 2),
      ])
  }

  @Test(arguments: [#"{"$users":{}}"#, #"{"users":{},"$users":{}}"#, #"{"$users":{},"users":{}}"#])
  func eachNamespaceKeepsItsAttrs(_ text: String) throws {
    let store = Self.store()
    let q = try JSON.parse(text)
    let full = try store.query(q)
    #expect(full.data["$users"]?[0]?["email"] == "stopa@example.com")
    if full.data["users"] != nil { #expect(full.data["users"]?[0]?["handle"] == "stopa") }
    let served = try store.serverQuery(q)
    let client = TripleStore(attrs: store.attrs, triples: served.triples)
    #expect(try client.query(q).data == full.data)
  }
}

/// `triples(withAttr:)` reads one attr's index: the same triples as filtering the whole store,
/// after adds, retracts and deletes.
struct TriplesWithAttrTests {
  @Test func matchesAFilterOfTheStore() throws {
    var store = SharedEntityIDTests.store()
    let extra = "2c774801-bdb5-459b-bb04-07f7964a7e78"
    try store.transact([
      ["add-triple", .string(extra), "u-email", "x@example.com"], ["add-triple", .string(extra), "u-handle", "x"],
      ["retract-triple", "1c774801-bdb5-459b-bb04-07f7964a7e77", "u-handle", "stopa"],
    ])
    for attr in ["u-id", "u-email", "u-handle", "s-email", "nope"] {
      let indexed = store.triples(withAttr: attr).map(\.json).sorted { $0.serialized() < $1.serialized() }
      let filtered = store.triples.filter { $0.attr == attr }.map(\.json).sorted { $0.serialized() < $1.serialized() }
      #expect(indexed == filtered, "\(attr)")
    }
    #expect(store.triples(withAttr: "u-handle").map(\.entity) == [extra])
  }
}
