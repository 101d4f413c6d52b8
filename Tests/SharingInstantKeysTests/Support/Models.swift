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

/// A `$files` entity as a schema that declares `$files` generates it (`instant-schema`): the
/// system attrs it names, `url` made by the server at query time.
struct StoredFile: EntityIdentifiable, Equatable {
  static let namespace = "$files"
  var id: String
  var path: String
  var url: String?
  var size: Double?
  var contentType: String?
  var photos: [Photo]?

  enum CodingKeys: String, CodingKey {
    case id, path, url, size, photos
    case contentType = "content-type"
  }

  static func instantAttributeName(for keyPath: PartialKeyPath<StoredFile>) -> String? {
    keyPath == \StoredFile.contentType ? "content-type" : nil
  }
}

/// An entity of the app's own with a has-one link to a file.
struct Photo: EntityIdentifiable, Equatable {
  static let namespace = "photos"
  var id: String = InstantID.make()
  var caption: String
  var image: StoredFile?

  enum CodingKeys: String, CodingKey { case id, caption, image }

  init(id: String = InstantID.make(), caption: String, image: StoredFile? = nil) {
    self.id = id
    self.caption = caption
    self.image = image
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    caption = try container.decode(String.self, forKey: .caption)
    image = try container.decodeInstantLinkIfPresent(StoredFile.self, forKey: .image)
  }
}

enum Schema {
  static let todos = EntityKey<Todo>(namespace: "todos")
  static let profiles = EntityKey<Profile>(namespace: "profiles")
  static let posts = EntityKey<Post>(namespace: "posts")
  static let files = EntityKey<StoredFile>(namespace: "$files")
  static let photos = EntityKey<Photo>(namespace: "photos")
}

let testSchema = ClientSchema(
  entities: [
    "todos": ["title": .init("string", indexed: true), "done": .init("boolean")],
    "profiles": ["handle": .init("string", unique: true, indexed: true), "bio": .init("string")],
    "posts": ["content": .init("string")],
    "$files": [
      "path": .init("string", unique: true, indexed: true), "url": .init("string"), "size": .init("number"),
      "content-type": .init("string"),
    ],
    "photos": ["caption": .init("string")],
  ],
  links: [
    .init(forward: .init(on: "posts", has: .one, label: "author"), reverse: .init(on: "profiles", has: .many, label: "posts")),
    .init(forward: .init(on: "photos", has: .one, label: "image"), reverse: .init(on: "$files", has: .many, label: "photos")),
  ])
