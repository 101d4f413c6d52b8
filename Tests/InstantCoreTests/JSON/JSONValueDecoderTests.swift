import Foundation
import InstantCore
import Testing
internal import OrderedCollections

/// `JSONValueDecoder` agrees with Foundation's `JSONDecoder` (which needs the text) on the shapes
/// apps use, and fails the same way.
@Suite("JSON value decoder")
struct JSONValueDecoderTests {
  struct Cursor: Codable, Equatable { var x: Double; var y: Double }
  enum Mood: String, Codable { case happy, busy }
  struct Presence: Codable, Equatable {
    var name: String
    var age: Int
    var small: UInt8
    var ratio: Float
    var online: Bool
    var mood: Mood
    var cursor: Cursor?
    var tags: [String]
    var scores: [String: Int]
    var grid: [[Int]]
    var nickname: String?
    var seen: Date
  }

  static let sample: JSON = [
    "name": "Ada", "age": 36, "small": 200, "ratio": 0.5, "online": true, "mood": "busy",
    "cursor": ["x": 1.5, "y": -2], "tags": ["a", "b"], "scores": ["q": 1, "r": 2], "grid": [[1, 2], [], [3]],
    "nickname": .null, "seen": 86_400.25,
  ]

  static func viaText<T: Decodable>(_ type: T.Type, _ json: JSON) throws -> T {
    try JSONDecoder().decode(type, from: Data(json.serialized().utf8))
  }

  @Test("A nested value decodes as JSONDecoder decodes it")
  func agreesWithFoundation() throws {
    let direct = try JSONValueDecoder().decode(Presence.self, from: Self.sample)
    #expect(direct == (try Self.viaText(Presence.self, Self.sample)))
    #expect(direct.cursor == Cursor(x: 1.5, y: -2))
    #expect(direct.nickname == nil)
    #expect(direct.seen == Date(timeIntervalSinceReferenceDate: 86_400.25))
  }

  @Test("A missing optional key decodes as nil; a missing required key names it")
  func missingKeys() throws {
    var object = Self.sample.objectValue!
    object["cursor"] = nil
    #expect(try JSONValueDecoder().decode(Presence.self, from: .object(object)).cursor == nil)
    object["name"] = nil
    #expect {
      try JSONValueDecoder().decode(Presence.self, from: .object(object))
    } throws: { error in
      guard case let DecodingError.keyNotFound(key, _) = error else { return false }
      return key.stringValue == "name"
    }
  }

  @Test("Wrong types and numbers that do not fit fail with the path, never a trap")
  func mismatches() throws {
    let cases: [(String, JSON)] = [
      ("age", 1.5), ("age", "36"), ("small", 256), ("small", -1), ("online", 1), ("mood", "sleepy"),
      ("tags", "a"), ("grid", [[1, "x"]]), ("cursor", ["x": 1]), ("seen", "yesterday"), ("age", 1e300),
    ]
    for (key, bad) in cases {
      var object = Self.sample.objectValue!
      object[key] = bad
      let json = JSON.object(object)
      #expect(throws: DecodingError.self, "\(key) = \(bad.serialized())") {
        try JSONValueDecoder().decode(Presence.self, from: json)
      }
      #expect(throws: DecodingError.self, "Foundation agrees on \(key) = \(bad.serialized())") {
        try Self.viaText(Presence.self, json)
      }
    }
  }

  @Test("JSON itself, arrays and scalars at the top")
  func topLevel() throws {
    #expect(try JSONValueDecoder().decode(JSON.self, from: Self.sample) == Self.sample)
    #expect(try JSONValueDecoder().decode([Int].self, from: [1, 2, 3]) == [1, 2, 3])
    #expect(try JSONValueDecoder().decode(String.self, from: "x") == "x")
    #expect(try JSONValueDecoder().decode(Int?.self, from: .null) == nil)
    #expect(try JSONValueDecoder().decode([Int?].self, from: [1, .null]) == [1, nil])
  }
}
