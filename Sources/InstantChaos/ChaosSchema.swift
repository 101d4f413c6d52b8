import InstantCore

/// The small app every chaos client writes to: lists hold items (one-to-many), items carry tags
/// (many-to-many).
public enum ChaosSchema {
  public static let client = ClientSchema(
    entities: [
      "lists": ["title": .init("string"), "rank": .init("number")],
      "items": ["text": .init("string"), "n": .init("number"), "done": .init("boolean")],
      "tags": ["name": .init("string")],
    ],
    links: [
      .init(
        forward: .init(on: "lists", has: "many", label: "items"),
        reverse: .init(on: "items", has: "one", label: "list")),
      .init(
        forward: .init(on: "items", has: "many", label: "tags"),
        reverse: .init(on: "tags", has: "many", label: "items")),
    ])

  /// Everything, with both links from their forward side.
  public static let query: JSON = ["lists": ["items": [:]], "items": ["tags": [:]], "tags": [:]]

  /// The link label each namespace is read with in ``query``.
  static let forwardLinks = ["lists": "items", "items": "tags"]
}
