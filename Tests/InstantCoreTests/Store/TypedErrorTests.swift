import Testing
@testable import InstantCore
internal import OrderedCollections

/// Errors carry a kind a caller can switch on, keep the reference's text in `message` (which
/// conformance and the wire compare), and describe themselves in Swift terms, naming attrs by
/// `namespace.label`.
struct TypedErrorTests {
  @Test func storeErrorsHaveKinds() throws {
    var store = try TestData.store()
    let unknown = try #require(throws: StoreError.self) { try store.transact([["frobnicate"]]) }
    #expect(unknown.kind == .unknownAction("frobnicate"))
    #expect(unknown.message == "unhandled transaction action: frobnicate")
    #expect(unknown.description.hasPrefix("Unknown tx-step action frobnicate; expected one of add-triple"))

    let merge = try #require(throws: StoreError.self) {
      try store.transact([["deep-merge-triple", .string(TestData.id("i2")), "items-parent", ["x": 1]]])
    }
    #expect(merge.kind == .mergeIntoLink(attribute: "items.parent"))
    #expect(merge.description.contains("items.parent is a link"))

    let cycle = try #require(throws: StoreError.self) {
      try store.transact([["delete-entity", .string(TestData.id("i6")), "items"]])
    }
    #expect(cycle.kind == .cascadeCycle)
    #expect(cycle.message == "Maximum call stack size exceeded")
  }

  @Test func queryErrorsKeepTheReferenceTextAndNameAttrs() throws {
    let store = try TestData.store()
    let notALink = try #require(throws: InstaQLError.self) {
      try store.query(try JSON.parse(#"{"items":{"$":{"where":{"name.x":1}}}}"#))
    }
    #expect(notALink.kind == .notALink(attribute: "items.name"))
    #expect(notALink.message == "Attr items-name is not a ref")
    #expect(notALink.description == "items.name is not a link, so a query cannot follow it.")

    let nullValue = try #require(throws: InstaQLError.self) {
      try store.query(try JSON.parse(#"{"items":{"$":{"where":{"name":null}}}}"#))
    }
    #expect(nullValue.kind == .malformedQuery)
    #expect(nullValue.message == "TypeError: Cannot read properties of null (reading 'hasOwnProperty')")
    #expect(nullValue.description.contains("items.name is compared with null"))
  }

  @Test func transactionErrorsKeepTheWireType() throws {
    var store = try TestData.store()
    let error = try #require(throws: TransactionError.self) {
      try store.applyServerTransaction([["add-triple", "not-a-uuid", "items-name", "x"]], now: 1)
    }
    #expect(error.kind == .validationFailed)
    #expect(error.serverError.type?.rawValue == "validation-failed")
    #expect(error.hint["errors"]?[0]?["in"] == ["add-triple", "not-a-uuid", "items-name", "x"])

    let unique = try #require(throws: TransactionError.self) {
      try store.applyServerTransaction(
        [["add-triple", .string(TestData.id("o3")), "owners-handle", "ann"]], now: 1)
    }
    #expect(unique.kind == .recordNotUnique)
    #expect(unique.message == #"Record not unique: owners.handle = "ann""#)
  }

  @Test func instaMLErrorsHaveKinds() throws {
    let error = try #require(throws: InstaMLError.self) {
      try InstaMLTests.steps([.update("users", .lookup("name", "A"), ["x": 1])])
    }
    #expect(error.kind == .lookupNotUnique(attribute: "users.name"))
    #expect(error.message == "name is not a unique attribute.")
  }
}
