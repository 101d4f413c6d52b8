import Foundation
import InstantCore
import OrderedCollections

/// A small app written by hand from the documented format: user namespaces `authors`, `posts`
/// and `tags`; links in both directions, has-one and has-many (one of them to `$users`, one with a
/// cascade on each side); `$users` with a guest linked to its primary user; a `$files` row with a
/// blob; a unicode value, a value with escapes, a 1.2 MB string, a json-typed value, dates as a
/// string and as a number, a number too large for plain integers.
enum SampleApp {
  // Entities
  static let alice = "3b1f0c2a-8d4e-4f6a-9c1b-2d3e4f5a6b7c"
  static let bob = "0a000000-0000-4000-8000-000000000002"
  static let hello = "5a0e1d2c-3b4a-4c5d-8e6f-7a8b9c0d1e2f"
  static let second = "9f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b"
  static let tagX = "c0000000-0000-4000-8000-000000000001"
  static let tagY = "c0000000-0000-4000-8000-000000000002"
  static let user = "0d9a5c1e-6a1f-4c3e-9b7a-1f2e3d4c5b6a"
  static let guest = "1d9a5c1e-6a1f-4c3e-9b7a-1f2e3d4c5b6a"
  static let file = "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f"
  static let locationID = "7e6d5c4b-3a29-4180-b7c6-d5e4f3a2b1c0"
  static let blob = Data("hello world\n".utf8)

  // User attrs
  static let authorsID = "a0000000-0000-4000-8000-000000000001"
  static let authorsName = "a0000000-0000-4000-8000-000000000002"
  static let authorsBio = "a0000000-0000-4000-8000-000000000003"
  static let postsID = "a0000000-0000-4000-8000-000000000011"
  static let postsTitle = "a0000000-0000-4000-8000-000000000012"
  static let postsBody = "a0000000-0000-4000-8000-000000000013"
  static let postsPublishedAt = "a0000000-0000-4000-8000-000000000014"
  static let postsScore = "a0000000-0000-4000-8000-000000000015"
  static let tagsID = "a0000000-0000-4000-8000-000000000021"
  static let tagsLabel = "a0000000-0000-4000-8000-000000000022"
  static let postsAuthor = "a0000000-0000-4000-8000-000000000031"
  static let authorsPinnedPosts = "a0000000-0000-4000-8000-000000000032"
  static let postsTags = "a0000000-0000-4000-8000-000000000033"
  static let authorsUser = "a0000000-0000-4000-8000-000000000034"

  static let unicodeName = "Zoë 東京 🚀"
  static let escapedName = "Bob \"the\" Builder\n\tof \\ things"
  /// 1.2 MB: long enough to span many read chunks.
  static let bigBio: String = {
    let unit = "Lorem ipsum dolor sit amet, ÿ 漢字 ✓. "
    return String(repeating: unit, count: 1_200_000 / unit.utf8.count + 1)
  }()
  static let postBody: JSON = ["tags": ["x", "y"], "draft": false, "n": 1.5]

  static let userAttrs: [Attr] = [
    blob(authorsID, "authors", "id", unique: true),
    blob(authorsName, "authors", "name", unique: true, indexed: true, type: "string"),
    blob(authorsBio, "authors", "bio"),
    blob(postsID, "posts", "id", unique: true),
    blob(postsTitle, "posts", "title", indexed: true, type: "string", required: true),
    blob(postsBody, "posts", "body"),
    blob(postsPublishedAt, "posts", "publishedAt", type: "date"),
    blob(postsScore, "posts", "score", type: "number"),
    blob(tagsID, "tags", "id", unique: true),
    blob(tagsLabel, "tags", "label", type: "string"),
    link(postsAuthor, "posts", "author", "authors", "posts", .one, unique: false, required: true, onDelete: "cascade"),
    link(authorsPinnedPosts, "authors", "pinnedPosts", "posts", "pinnedBy", .many, unique: false),
    link(postsTags, "posts", "tags", "tags", "posts", .many, unique: false, onDeleteReverse: "cascade"),
    link(authorsUser, "authors", "user", "$users", "author", .one, unique: true),
  ]

  static var attrs: [Attr] { TestCatalog.attrs + userAttrs }

  static let rules: JSON = ["posts": ["allow": ["view": "true", "create": "auth.id != null"]]]
  static let appID = "11111111-2222-4333-8444-555555555555"
  /// 2026-08-20T17:03:11.402118Z
  static let backupAt = Date(timeIntervalSince1970: 1_787_245_391.402118)

  static var triples: [Triple] {
    let c = TestCatalog.self
    return [
      // $users
      Triple(user, c.usersID, .string(user), 1_754_000_000_000),
      Triple(user, c.usersEmail, "alice@example.com", 1_754_000_000_001),
      Triple(user, c.usersType, "user", 1_754_000_000_002),
      Triple(guest, c.usersID, .string(guest), 1_754_000_000_500),
      Triple(guest, c.usersType, "guest", 1_754_000_000_500),
      Triple(guest, c.usersLinkedPrimaryUser, .string(user), 1_754_000_000_600),
      // $files (url is derived: never written)
      Triple(file, c.filesID, .string(file), 1_754_000_300_000),
      Triple(file, c.filesPath, "notes/hello.txt", 1_754_000_300_000),
      Triple(file, c.filesSize, 12, 1_754_000_300_000),
      Triple(file, c.filesContentType, "text/plain", 1_754_000_300_000),
      Triple(file, c.filesContentDisposition, "inline", 1_754_000_300_000),
      Triple(file, c.filesLocationID, .string(locationID), 1_754_000_300_000),
      Triple(file, c.filesKeyVersion, 1, 1_754_000_300_000),
      Triple(file, c.filesURL, "http://localhost/storage/notes/hello.txt", 1_754_000_300_000),
      // authors
      Triple(alice, authorsID, .string(alice), 1_754_000_100_000),
      Triple(alice, authorsName, .string(unicodeName), 1_754_000_100_000),
      Triple(alice, authorsBio, .string(bigBio), 1_754_000_100_001),
      Triple(alice, authorsPinnedPosts, .string(second), 1_754_000_260_000),
      Triple(alice, authorsPinnedPosts, .string(hello), 1_754_000_260_001),
      Triple(alice, authorsUser, .string(user), 1_754_000_100_002),
      Triple(bob, authorsID, .string(bob), 1_754_000_110_000),
      Triple(bob, authorsName, .string(escapedName), 1_754_000_110_000),
      // posts
      Triple(hello, postsID, .string(hello), 1_754_000_200_000),
      Triple(hello, postsTitle, "Hello", 1_754_000_200_000),
      Triple(hello, postsBody, postBody, 1_754_000_200_000),
      Triple(hello, postsPublishedAt, "2021-01-07 18:50:43.447955", 1_754_000_200_000),
      Triple(hello, postsScore, 3, 1_754_000_200_000),
      Triple(hello, postsAuthor, .string(alice), 1_754_000_200_000),
      Triple(hello, postsTags, .string(tagY), 1_754_000_200_000),
      Triple(hello, postsTags, .string(tagX), 1_754_000_200_000),
      Triple(second, postsID, .string(second), 1_754_000_250_000),
      Triple(second, postsTitle, "Second", 1_754_000_250_000),
      Triple(second, postsBody, nil, 1_754_000_250_000),
      Triple(second, postsPublishedAt, 1_754_000_000_000, 1_754_000_250_000),
      Triple(second, postsScore, 1e21, 1_754_000_250_000),
      Triple(second, postsAuthor, .string(alice), 1_754_000_250_000),
      // tags
      Triple(tagX, tagsID, .string(tagX), 1_754_000_050_000),
      Triple(tagX, tagsLabel, "x", 1_754_000_050_000),
      Triple(tagY, tagsID, .string(tagY), 1_754_000_050_001),
      Triple(tagY, tagsLabel, "y", 1_754_000_050_001),
    ]
  }

  /// The lines the format prescribes for the small namespaces (written by hand).
  static let expectedPosts = """
    {"entity":{"author":"\(alice)","body":{"n": 1.5, "tags": ["x", "y"], "draft": false},"id":"\(hello)",\
    "publishedAt":"2021-01-07 18:50:43.447955","score":3,"tags":["\(tagX)","\(tagY)"],"title":"Hello"},\
    "createdAt":1754000200000}
    {"entity":{"author":"\(alice)","body":null,"id":"\(second)","publishedAt":1754000000000,\
    "score":1000000000000000000000,"title":"Second"},"createdAt":1754000250000}

    """
  static let expectedFiles = """
    {"entity":{"content-disposition":"inline","content-type":"text/plain","id":"\(file)","key-version":1,\
    "location-id":"\(locationID)","path":"notes/hello.txt","size":12},"createdAt":1754000300000}

    """
  static let expectedUsers = """
    {"entity":{"email":"alice@example.com","id":"\(user)","type":"user"},"createdAt":1754000000000}
    {"entity":{"id":"\(guest)","linkedPrimaryUser":"\(user)","type":"guest"},"createdAt":1754000000500}

    """
  static let expectedTags = """
    {"entity":{"id":"\(tagX)","label":"x"},"createdAt":1754000050000}
    {"entity":{"id":"\(tagY)","label":"y"},"createdAt":1754000050001}

    """
  static var expectedAuthors: String {
    """
    {"entity":{"id":"\(bob)","name":"Bob \\"the\\" Builder\\n\\tof \\\\ things"},"createdAt":1754000110000}
    {"entity":{"bio":"\(bigBio)","id":"\(alice)","name":"\(unicodeName)","pinnedPosts":["\(hello)","\(second)"],\
    "user":"\(user)"},"createdAt":1754000100000}

    """
  }

  /// The schema the format prescribes for these attrs.
  static let expectedSchema: JSON = [
    "entities": [
      "$files": [
        "attrs": [
          "path": ["valueType": "string", "config": ["unique": true, "indexed": true], "required": true],
          "url": ["valueType": "string", "config": ["unique": false, "indexed": false], "required": true],
        ]
      ],
      "$users": [
        "attrs": [
          "email": ["valueType": "string", "config": ["unique": true, "indexed": true]],
          "imageURL": ["valueType": "string", "config": ["unique": false, "indexed": false]],
          "type": ["valueType": "string", "config": ["unique": false, "indexed": false]],
        ]
      ],
      "authors": [
        "attrs": [
          "bio": ["valueType": "any", "config": ["unique": false, "indexed": false]],
          "name": ["valueType": "string", "config": ["unique": true, "indexed": true]],
        ]
      ],
      "posts": [
        "attrs": [
          "body": ["valueType": "any", "config": ["unique": false, "indexed": false]],
          "publishedAt": ["valueType": "date", "config": ["unique": false, "indexed": false]],
          "score": ["valueType": "number", "config": ["unique": false, "indexed": false]],
          "title": ["valueType": "string", "config": ["unique": false, "indexed": true], "required": true],
        ]
      ],
      "tags": ["attrs": ["label": ["valueType": "string", "config": ["unique": false, "indexed": false]]]],
    ],
    "links": [
      "$usersLinkedPrimaryUser": [
        "forward": ["on": "$users", "label": "linkedPrimaryUser", "has": "one", "onDelete": "cascade"],
        "reverse": ["on": "$users", "label": "linkedGuestUsers", "has": "many"],
      ],
      "authorsPinnedPosts": [
        "forward": ["on": "authors", "label": "pinnedPosts", "has": "many"],
        "reverse": ["on": "posts", "label": "pinnedBy", "has": "many"],
      ],
      "authorsUser": [
        "forward": ["on": "authors", "label": "user", "has": "one"],
        "reverse": ["on": "$users", "label": "author", "has": "one"],
      ],
      "postsAuthor": [
        "forward": ["on": "posts", "label": "author", "has": "one", "required": true, "onDelete": "cascade"],
        "reverse": ["on": "authors", "label": "posts", "has": "many"],
      ],
      "postsTags": [
        "forward": ["on": "posts", "label": "tags", "has": "many"],
        "reverse": ["on": "tags", "label": "posts", "has": "many", "onDelete": "cascade"],
      ],
    ],
  ]

  private static func blob(
    _ id: String, _ etype: String, _ label: String, unique: Bool = false, indexed: Bool = false, type: String? = nil,
    required: Bool = false
  ) -> Attr {
    Attr(
      id: id, forward: Ident(id: "f" + id.dropFirst(), etype: etype, label: label), unique: unique, indexed: indexed,
      checkedDataType: type, extra: ["required?": .bool(required), "catalog": "user"])
  }

  private static func link(
    _ id: String, _ etype: String, _ label: String, _ target: String, _ reverseLabel: String, _ has: Cardinality,
    unique: Bool, required: Bool = false, onDelete: String? = nil, onDeleteReverse: String? = nil
  ) -> Attr {
    Attr(
      id: id, forward: Ident(id: "f" + id.dropFirst(), etype: etype, label: label),
      reverse: Ident(id: "e" + id.dropFirst(), etype: target, label: reverseLabel), valueType: "ref", cardinality: has,
      unique: unique, onDelete: onDelete, onDeleteReverse: onDeleteReverse,
      extra: ["required?": .bool(required), "catalog": "user"])
  }
}
