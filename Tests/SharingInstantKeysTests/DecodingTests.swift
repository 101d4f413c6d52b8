import InstantCore
import InstantDB
import SharingInstant
import TestSupport
import Testing

@Suite("Results that do not decode", .timeLimit(.minutes(10)))
struct DecodingTests {
  @Test("An entity that does not decode is reported in loadError, the others are kept")
  func reportedNotDropped() async throws {
    try await KeysServer.withTwoClients(expectingErrors: ["todos entity did not decode", "DecodingError.typeMismatch: expected value of type String. Path: title"]) { a, b in
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

  @Test("A row that stops decoding in a later result is reported and the rest kept; fixed, it comes back")
  func laterRowStopsDecoding() async throws {
    try await KeysServer.withTwoClients(expectingErrors: ["todos entity did not decode", "DecodingError.typeMismatch: expected value of type String. Path: title"]) { a, b in
      // Made in one transaction, so in one millisecond: the result orders them by id.
      let ids = (0..<3).map { _ in InstantID.make() }.sorted()
      try await b.transact(ids.enumerated().map { .create("todos", .id($1), ["title": .string("t\($0)"), "done": false]) }).synced()
      let todos = Shared(.instantSync(Schema.todos, client: a))
      try await eventually("three todos") { todos.wrappedValue.count == 3 }
      // One row changes (the key patches the value it had) into one that does not decode.
      try await b.transact(.update("todos", .id(ids[1]), ["title": .null])).synced()
      try await eventually("the broken todo reported") { todos.loadError is EntityDecodingError }
      #expect(todos.wrappedValue.ids == [ids[0], ids[2]])
      try await b.transact(.update("todos", .id(ids[1]), ["title": "back"])).synced()
      try await eventually("the todo back") { todos.wrappedValue.count == 3 }
      #expect(todos.wrappedValue.map(\.title) == ["t0", "back", "t2"])
      // A rename in place, and a new row after the others (made later).
      let fourth = InstantID.make()
      try await b.transact([.update("todos", .id(ids[2]), ["title": "renamed"]), .create("todos", .id(fourth), ["title": "t3", "done": false])]).synced()
      try await eventually("the rename and the new row") { todos.wrappedValue.count == 4 }
      #expect(todos.wrappedValue.map(\.title) == ["t0", "back", "renamed", "t3"])
      // A row removed from the middle.
      try await b.transact(.delete("todos", .id(ids[1]))).synced()
      try await eventually("the delete") { todos.wrappedValue.count == 3 }
      #expect(todos.wrappedValue.ids == [ids[0], ids[2], fourth])
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
