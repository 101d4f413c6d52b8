package import InstantCore

/// The small app every chaos client writes to: lists hold items (one-to-many), items carry tags
/// (many-to-many), and boards hold items (one-to-many). Boards are shared by every client: a
/// small fixed pool named by the unique `key`, only ever written through a lookup on it.
package enum ChaosSchema {
  /// The shared boards' keys. Any client may be the first to write one (the lookup creates it).
  package static let sharedKeys = (0..<5).map { "board-\($0)" }

  /// Clients with an index below this own one attribute on each board (`c0`, `c1`, …), which
  /// they alone write.
  package static let perClientAttributes = 16

  /// The attribute of client `index` on every board (`nil` past ``perClientAttributes``).
  package static func clientAttribute(_ index: Int) -> String? {
    index < perClientAttributes ? "c\(index)" : nil
  }

  package static let client = ClientSchema(
    entities: [
      "lists": ["title": .init("string"), "rank": .init("number")],
      "items": ["text": .init("string"), "n": .init("number"), "done": .init("boolean")],
      "tags": ["name": .init("string")],
      "boards": boardAttributes,
    ],
    links: [
      .init(
        forward: .init(on: "lists", has: .many, label: "items"),
        reverse: .init(on: "items", has: .one, label: "list")),
      .init(
        forward: .init(on: "items", has: .many, label: "tags"),
        reverse: .init(on: "tags", has: .many, label: "items")),
      .init(
        forward: .init(on: "boards", has: .many, label: "items"),
        reverse: .init(on: "items", has: .one, label: "board")),
    ])

  /// `key` (unique and indexed, for lookups), `title` (written by every client: the last writer
  /// wins) and the per-client attributes.
  static var boardAttributes: [String: ClientSchema.Attribute] {
    var attributes: [String: ClientSchema.Attribute] = [
      "key": .init("string", unique: true, indexed: true), "title": .init("string"),
    ]
    for index in 0..<perClientAttributes { attributes[clientAttribute(index)!] = .init("number") }
    return attributes
  }

  /// Everything, with every link from its forward side.
  package static let query: JSON = [
    "lists": ["items": [:]], "items": ["tags": [:]], "tags": [:], "boards": ["items": [:]],
  ]

  /// The link label each namespace is read with in ``query``.
  static let forwardLinks = ["lists": "items", "items": "tags", "boards": "items"]

  /// Namespaces whose entities are named by a unique attribute rather than by id, as the model
  /// cannot know the id the server gives an entity a lookup creates.
  static let keyedBy = ["boards": "key"]
}
