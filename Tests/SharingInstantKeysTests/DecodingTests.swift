import InstantCore
import InstantDB
import SharingInstant
import TestSupport
import Testing

@Suite("Results that do not decode", .timeLimit(.minutes(1)))
struct DecodingTests {
  @Test("An entity that does not decode is reported in loadError, the others are kept")
  func reportedNotDropped() async throws {
    try await KeysServer.withTwoClients { a, b in
      let good = InstantID.make()
      let bad = InstantID.make()
      try await b.transact([
        .create("todos", .id(good), ["title": "fine", "done": false]),
        .create("todos", .id(bad), ["done": false]),
      ]).synced()
      let todos = Shared(.instantSync(Schema.todos, client: a))
      try await eventually("the good todo and the error") { todos.wrappedValue.count == 1 && todos.loadError != nil }
      let error = try #require(todos.loadError as? EntityDecodingError)
      #expect(error.failures.map(\.id) == [bad])
      #expect(todos.wrappedValue.ids == [good])
    }
  }
}

@Suite("Has-one links that do not decode")
struct LinkDecodingTests {
  @Test("A has-one link decodes from an object or a one-element array")
  func bothShapes() throws {
    let author: JSON = ["id": "a", "handle": "ann"]
    let fromObject = try JSONValueDecoder().decode(Post.self, from: ["id": "p", "content": "hi", "author": author])
    let fromArray = try JSONValueDecoder().decode(Post.self, from: ["id": "p", "content": "hi", "author": [author]])
    #expect(fromObject.author?.handle == "ann")
    #expect(fromArray.author == fromObject.author)
  }

  @Test("A linked object that does not decode reports its own error, not \"expected an object\"")
  func linkErrorIsTheObjects() throws {
    let post: JSON = ["id": "p", "content": "hi", "author": [["id": "a"]]]
    let error = try #require(throws: DecodingError.self) { try JSONValueDecoder().decode(Post.self, from: post) }
    guard case let .keyNotFound(key, context) = error else {
      Issue.record("expected the missing handle, got \(error)")
      return
    }
    #expect(key.stringValue == "handle")
    #expect(context.codingPath.first?.stringValue == "author")
  }
}
