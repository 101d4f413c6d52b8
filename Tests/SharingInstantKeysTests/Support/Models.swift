import Foundation
import InstantCore
import SharingInstant

struct Todo: EntityIdentifiable, Equatable {
  static let namespace = "todos"
  var id: String = InstantID.make()
  var title: String
  var done: Bool = false
}

struct Profile: EntityIdentifiable, Equatable {
  static let namespace = "profiles"
  var id: String = InstantID.make()
  var handle: String
  var bio: String?
  var posts: [Post]?
}

struct Post: EntityIdentifiable, Equatable {
  static let namespace = "posts"
  var id: String = InstantID.make()
  var content: String
  var author: Profile?

  enum CodingKeys: String, CodingKey { case id, content, author }

  init(id: String = InstantID.make(), content: String, author: Profile? = nil) {
    self.id = id
    self.content = content
    self.author = author
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    content = try container.decode(String.self, forKey: .content)
    author = try container.decodeInstantLinkIfPresent(Profile.self, forKey: .author)
  }
}

enum Schema {
  static let todos = EntityKey<Todo>(namespace: "todos")
  static let profiles = EntityKey<Profile>(namespace: "profiles")
  static let posts = EntityKey<Post>(namespace: "posts")
}

let testSchema = ClientSchema(
  entities: [
    "todos": ["title": .init("string", indexed: true), "done": .init("boolean")],
    "profiles": ["handle": .init("string", unique: true, indexed: true), "bio": .init("string")],
    "posts": ["content": .init("string")],
  ],
  links: [
    .init(forward: .init(on: "posts", has: .one, label: "author"), reverse: .init(on: "profiles", has: .many, label: "posts"))
  ])
