import InstantCore
import OrderedCollections

/// The system-catalog attrs of `$users` and `$files` with the reference's fixed ids, as
/// instant-local seeds them (InstantLocal's `SystemCatalog`, which this test target cannot import).
enum TestCatalog {
  static let usersID = "96653230-13ff-ffff-a4b4-81ffffffffff"
  static let usersEmail = "96653230-13ff-ffff-a4b4-46010bffffff"
  static let usersType = "96653230-13ff-ffff-a4b5-3cbc9fffffff"
  static let usersImageURL = "96653230-13ff-ffff-a4b4-8600c4a457ff"
  static let usersLinkedPrimaryUser = "96653230-13ff-ffff-a4b4-b7d3ffffffff"
  static let filesID = "96653230-13ff-ffff-2a34-81ffffffffff"
  static let filesPath = "96653230-13ff-ffff-2a34-f04cffffffff"
  static let filesSize = "96653230-13ff-ffff-2a35-24609fffffff"
  static let filesContentType = "96653230-13ff-ffff-2a34-29e5e4ffffff"
  static let filesContentDisposition = "96653230-13ff-ffff-2a34-21a24fffffff"
  static let filesLocationID = "96653230-13ff-ffff-2a34-b40fffffffff"
  static let filesKeyVersion = "96653230-13ff-ffff-2a34-aaffffffffff"
  static let filesURL = "96653230-13ff-ffff-2a35-48afffffffff"

  static let attrs: [Attr] = [
    attr(usersID, "$users", "id", unique: true, indexed: true),
    attr(usersEmail, "$users", "email", unique: true, indexed: true, type: "string"),
    attr(usersType, "$users", "type", type: "string"),
    attr(usersImageURL, "$users", "imageURL", type: "string"),
    Attr(
      id: usersLinkedPrimaryUser,
      forward: Ident(id: "96653231-03ff-ffff-a4b4-b7d3ffffffff", etype: "$users", label: "linkedPrimaryUser"),
      reverse: Ident(id: "96653231-03ff-ffff-a4b4-b353ffffffff", etype: "$users", label: "linkedGuestUsers"),
      valueType: "ref", cardinality: .one, onDelete: "cascade",
      extra: ["required?": false, "inferred-types": nil, "catalog": "system"]),
    attr(filesID, "$files", "id", unique: true, indexed: true),
    attr(filesPath, "$files", "path", unique: true, indexed: true, type: "string", required: true),
    attr(filesSize, "$files", "size", indexed: true, type: "number", required: true),
    attr(filesContentType, "$files", "content-type", indexed: true, type: "string"),
    attr(filesContentDisposition, "$files", "content-disposition", indexed: true, type: "string"),
    attr(filesLocationID, "$files", "location-id", unique: true, indexed: true, type: "string", required: true),
    attr(filesKeyVersion, "$files", "key-version", type: "number"),
    attr(filesURL, "$files", "url", type: "string"),
  ]

  static var ids: Set<String> { Set(attrs.map(\.id)) }

  private static func attr(
    _ id: String, _ etype: String, _ label: String, unique: Bool = false, indexed: Bool = false, type: String? = nil,
    required: Bool = false
  ) -> Attr {
    Attr(
      id: id, forward: Ident(id: "96653231-03" + id.dropFirst(11), etype: etype, label: label), unique: unique,
      indexed: indexed, checkedDataType: type,
      extra: [
        "required?": .bool(required), "inferred-types": type.map { .array([.string($0)]) } ?? .null, "catalog": "system",
      ])
  }
}
