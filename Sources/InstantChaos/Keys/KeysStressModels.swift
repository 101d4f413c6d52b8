import Foundation
import InstantCore
import SharingInstant

/// A todo of the keys stress run: `n` orders the window scenario's key.
struct StressTodo: EntityIdentifiable, Equatable {
  static let namespace = "todos"
  var id: String
  var title: String
  var done: Bool
  var n: Double
}

struct StressProfile: EntityIdentifiable, Equatable {
  static let namespace = "profiles"
  var id: String
  var handle: String
}

/// A post with its author embedded, as `posts.with(\.author)` delivers it.
struct StressPost: EntityIdentifiable, Equatable {
  static let namespace = "posts"
  var id: String
  var content: String
  var author: StressProfile?

  enum CodingKeys: String, CodingKey { case id, content, author }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    content = try container.decode(String.self, forKey: .content)
    author = try container.decodeInstantLinkIfPresent(StressProfile.self, forKey: .author)
  }
}

enum StressSchema {
  static let todos = EntityKey<StressTodo>(namespace: "todos")
  static let posts = EntityKey<StressPost>(namespace: "posts")

  static let client = ClientSchema(
    entities: [
      "todos": ["title": .init("string"), "done": .init("boolean"), "n": .init("number", indexed: true)],
      "profiles": ["handle": .init("string")],
      "posts": ["content": .init("string")],
    ],
    links: [
      .init(forward: .init(on: "posts", has: .one, label: "author"), reverse: .init(on: "profiles", has: .many, label: "posts"))
    ])
}
