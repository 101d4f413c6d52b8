import Foundation
package import InstantCore
import OrderedCollections

/// The system-catalog attrs every app has (docs/protocol.md, "System catalog"), with the reference's deterministic
/// ids, so code and tooling built against a hosted Instant see the same ids here.
package enum SystemCatalog {
  /// `$users.id`.
  package static let usersID = "96653230-13ff-ffff-a4b4-81ffffffffff"
  /// `$users.email`.
  package static let usersEmail = "96653230-13ff-ffff-a4b4-46010bffffff"
  /// `$users.type` (`"user"` or `"guest"`).
  package static let usersType = "96653230-13ff-ffff-a4b5-3cbc9fffffff"
  /// `$users.imageURL`.
  package static let usersImageURL = "96653230-13ff-ffff-a4b4-8600c4a457ff"
  /// `$users.linkedPrimaryUser` (ref from a guest to the user it was linked to).
  package static let usersLinkedPrimaryUser = "96653230-13ff-ffff-a4b4-b7d3ffffffff"

  /// The system attrs, in the order they are sent.
  package static let attrs: [Attr] = [
    attr(usersID, "96653231-03ff-ffff-a4b4-81ffffffffff", "$users", "id", unique: true, indexed: true),
    attr(usersEmail, "96653231-03ff-ffff-a4b4-46010bffffff", "$users", "email", unique: true, indexed: true, type: "string"),
    attr(usersType, "96653231-03ff-ffff-a4b5-3cbc9fffffff", "$users", "type", type: "string"),
    attr(usersImageURL, "96653231-03ff-ffff-a4b4-8600c4a457ff", "$users", "imageURL", type: "string"),
    Attr(
      id: usersLinkedPrimaryUser,
      forward: Ident(id: "96653231-03ff-ffff-a4b4-b7d3ffffffff", etype: "$users", label: "linkedPrimaryUser"),
      reverse: Ident(id: "96653231-03ff-ffff-a4b4-b353ffffffff", etype: "$users", label: "linkedGuestUsers"),
      valueType: "ref", cardinality: .one, onDelete: "cascade",
      extra: ["required?": false, "inferred-types": nil, "catalog": "system"]),
    attr("96653230-13ff-ffff-2a34-81ffffffffff", "96653231-03ff-ffff-2a34-81ffffffffff", "$files", "id", unique: true, indexed: true),
    attr("96653230-13ff-ffff-2a34-f04cffffffff", "96653231-03ff-ffff-2a34-f04cffffffff", "$files", "path", unique: true, indexed: true, type: "string", required: true),
    attr("96653230-13ff-ffff-2a35-24609fffffff", "96653231-03ff-ffff-2a35-24609fffffff", "$files", "size", indexed: true, type: "number", required: true),
    attr("96653230-13ff-ffff-2a34-29e5e4ffffff", "96653231-03ff-ffff-2a34-29e5e4ffffff", "$files", "content-type", indexed: true, type: "string"),
    attr("96653230-13ff-ffff-2a34-21a24fffffff", "96653231-03ff-ffff-2a34-21a24fffffff", "$files", "content-disposition", indexed: true, type: "string"),
    attr("96653230-13ff-ffff-2a34-b40fffffffff", "96653231-03ff-ffff-2a34-b40fffffffff", "$files", "location-id", unique: true, indexed: true, type: "string", required: true),
    attr("96653230-13ff-ffff-2a34-aaffffffffff", "96653231-03ff-ffff-2a34-aaffffffffff", "$files", "key-version", type: "number"),
    attr("96653230-13ff-ffff-2a35-48afffffffff", "96653231-03ff-ffff-2a35-48afffffffff", "$files", "url", type: "string"),
  ]

  /// The reference's id for a system attr or ident (`encode-system-uuid` in its
  /// `system_catalog.clj`): the high half spells `system` and the kind (`at`, `id`), the low half
  /// `<namespace code>/<label code>`, five bits per letter of `abcdefghijklmnopqrstuvwxzy/`, the
  /// rest of each half filled with ones. `systemID(.attr, "us", "id")` is `$users.id`'s attr id.
  package static func systemID(_ kind: SystemIDKind, _ namespaceCode: String, _ labelCode: String) -> String {
    let halves = [encode("system" + kind.rawValue), encode(namespaceCode + "/" + labelCode)]
    return UUID(bytes: halves.flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) }).uuidString.lowercased()
  }

  /// What a ``systemID(_:_:_:)`` names.
  package enum SystemIDKind: String {
    case attr = "at"
    case ident = "id"
  }

  private static let codeLetters = Array("abcdefghijklmnopqrstuvwxzy/")

  /// Up to 12 letters of ``codeLetters``, 5 bits each from the top, then ones.
  private static func encode(_ code: String) -> UInt64 {
    precondition(code.count < 13, "a system code has at most 12 letters")
    var bits: UInt64 = 0
    var used = 0
    for character in code {
      guard let index = codeLetters.firstIndex(of: character) else { preconditionFailure("\(character) is not a code letter") }
      bits = bits << 5 | UInt64(index)
      used += 5
    }
    return bits << (64 - used) | (used == 0 ? .max : (1 << (64 - used)) - 1)
  }

  /// Whether `id` is one of the system attrs (they are seeded, never stored).
  package static func isSystemAttr(_ id: String) -> Bool { ids.contains(id) }

  private static let ids = Set(attrs.map(\.id))

  private static func attr(
    _ id: String, _ identID: String, _ etype: String, _ label: String, unique: Bool = false,
    indexed: Bool = false, type: String? = nil, required: Bool = false
  ) -> Attr {
    Attr(
      id: id, forward: Ident(id: identID, etype: etype, label: label), unique: unique, indexed: indexed,
      checkedDataType: type,
      extra: [
        "required?": .bool(required), "inferred-types": type.map { .array([.string($0)]) } ?? .null,
        "catalog": "system",
      ])
  }
}
