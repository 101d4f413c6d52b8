import Testing

@testable import InstantCore

/// `$files` in a transaction, as the reference's `prevent-system-column-updates`: `id` and `path`
/// may be written (rules decide), every other system column only by instant-local itself.
struct FilesSystemColumnTests {
  static let file = "f2000000-0000-4000-8000-000000000001"

  static func store() throws -> TripleStore {
    func system(_ id: String, _ label: String, unique: Bool = false) -> Attr {
      Attr(
        id: id, forward: Ident(id: "f-" + id, etype: "$files", label: label), unique: unique, indexed: true,
        extra: (["catalog": "system"] as JSON).objectValue!)
    }
    var store = TripleStore(attrs: AttrStore([
      system("files-id", "id", unique: true), system("files-path", "path", unique: true), system("files-size", "size"),
      system("files-ctype", "content-type"), system("files-lid", "location-id", unique: true),
      Attr(id: "files-caption", forward: Ident(id: "f-caption", etype: "$files", label: "caption"), extra: (["catalog": "user"] as JSON).objectValue!),
    ]))
    _ = try store.applyServerTransaction(
      [
        ["add-triple", .string(file), "files-id", .string(file)], ["add-triple", .string(file), "files-path", "a.png"],
        ["add-triple", .string(file), "files-size", 3], ["add-triple", .string(file), "files-lid", "l1"],
      ], now: 1, systemWrite: true)
    return store
  }

  @Test("size, content-type and location-id are refused, written or retracted, with the reference's message")
  func systemColumnsAreRefused() throws {
    var store = try Self.store()
    for (attr, label, op) in [
      ("files-size", "size", "add-triple"), ("files-ctype", "content-type", "add-triple"),
      ("files-lid", "location-id", "add-triple"), ("files-size", "size", "retract-triple"),
      ("files-size", "size", "deep-merge-triple"),
    ] {
      let step: JSON = [.string(op), .string(Self.file), .string(attr), 3]
      let refused = #expect(throws: TransactionError.self) { try store.applyServerTransaction([step], now: 2) }
      #expect(refused?.kind == .validationFailed)
      #expect(
        refused?.message
          == "Validation failed for tx-step: $files.\(label) is a system column. You aren't allowed to change this directly.")
      #expect(refused?.hint["input"] == step)
    }
    #expect(store.values(of: Self.file, attr: "files-size") == [3])
  }

  @Test("path, id and the app's own $files attrs may be written")
  func pathAndCustomAttrsMayBeWritten() throws {
    var store = try Self.store()
    _ = try store.applyServerTransaction(
      [["add-triple", .string(Self.file), "files-path", "b.png"], ["add-triple", .string(Self.file), "files-caption", "cat"]],
      now: 2)
    #expect(store.values(of: Self.file, attr: "files-path") == ["b.png"])
    #expect(store.values(of: Self.file, attr: "files-caption") == ["cat"])
  }
}
