import CaseStudies
import DemoSupport
import ExampleSchema
import Foundation
import InstantLocal
import InstantLocalTesting
import SharingInstant
import TestSupport
import Testing

/// The case-study models, two clients each, against a real instant-local.
// Inside the whole suite on two cores a case study has taken 80–93 s, and chat's four clients
// once took more than 15 s to all join their room (CI, 2026-11-29): the waits catch a hang, the
// limit a stuck suite.
@Suite("Case studies", .timeLimit(.minutes(10)))
@MainActor
struct CaseStudiesTests {
  @Test("Todos: add, toggle, rename, remove and clear on one client reach the other")
  func todos() async throws {
    try await withTwoClients { a, b in
      let ann = withDependencies { $0.defaultInstant = a } operation: { TodosModel() }
      let bob = withDependencies { $0.defaultInstant = b } operation: { TodosModel() }
      #expect(ann.add("   ") == nil, "an empty title adds nothing")
      let milk = try #require(ann.add("Milk"))
      let eggs = try #require(ann.add("Eggs"))
      _ = try await seen("B sees both") { bob.todos.map(\.title) == ["Milk", "Eggs"] }
      bob.toggle(milk.id)
      _ = try await seen("A sees it done") { ann.todos[id: milk.id]?.done == true }
      #expect(ann.remaining == 1)
      ann.rename(eggs.id, to: "Free-range eggs")
      _ = try await seen("B sees the rename") { bob.todos[id: eggs.id]?.title == "Free-range eggs" }
      bob.clearCompleted()
      _ = try await seen("A sees milk gone") { ann.todos.map(\.id) == [eggs.id] }
      ann.remove(eggs.id)
      _ = try await seen("B sees an empty list") { bob.todos.isEmpty }
      #expect(ann.error == nil && bob.error == nil)
    }
  }

  @Test("Chat: avatars, the typing text for one, two and three typers, messages and reactions")
  func chat() async throws {
    try await withClients(4) { clients in
      let names = ["Ann", "Bob", "Cy", "Di"]
      let models = zip(clients, names).map { client, name in
        withDependencies { $0.defaultInstant = client } operation: { ChatModel(name: name, color: "#000000", roomID: "t") }
      }
      let (ann, bob, cy, di) = (models[0], models[1], models[2], models[3])
      _ = try await seen("everyone is in") { models.allSatisfy { $0.peers.count == 3 } }
      #expect(ann.avatars.first?.name == "Ann" && Set(ann.avatars.map(\.name)) == Set(names))
      #expect(ann.typingText == nil)

      bob.draftChanged("h")
      _ = try await seen("Bob is typing") { ann.typingText == "Bob is typing…" }
      cy.draftChanged("h")
      _ = try await seen("two typing") { ["Bob and Cy are typing…", "Cy and Bob are typing…"].contains(ann.typingText) }
      di.draftChanged("h")
      _ = try await seen("three typing") { ann.typingText?.hasSuffix("and 2 others are typing…") == true }
      #expect(di.typingText?.hasSuffix("and 1 others are typing…") == false, "Di does not count herself")

      let sent = try #require(bob.send("  hi all "))
      #expect(sent.text == "hi all" && sent.author == "Bob")
      #expect(bob.send("") == nil)
      _ = try await seen("Ann gets Bob's message and Bob stops typing") {
        ann.timeline.last?.text == "hi all" && ann.typingText?.contains("Bob") == false
      }
      try await cy.react("🎉")
      _ = try await seen("Ann gets Cy's reaction") { ann.reactions.latestEvent?.data == ChatEmojiTopic(emoji: "🎉", name: "Cy") }
      #expect(cy.reactions.events.isEmpty, "a topic event is not echoed to its sender")
    }
  }

  @Test("Cursors: moves reach the peer; nudges stay inside the canvas")
  func cursors() async throws {
    try await withTwoClients { a, b in
      let ann = withDependencies { $0.defaultInstant = a } operation: { CursorsModel(name: "Ann", color: "#f00") }
      let bob = withDependencies { $0.defaultInstant = b } operation: { CursorsModel(name: "Bob", color: "#00f") }
      ann.move(x: 3, y: 4)
      _ = try await seen("Bob sees Ann's cursor") {
        bob.others.first.map { ($0.data.cursorX, $0.data.cursorY) } ?? (-1, -1) == (3, 4)
      }
      ann.nudge(dx: -10, dy: 100, width: 20, height: 10)
      #expect((ann.me.cursorX, ann.me.cursorY) == (0, 9))
      _ = try await seen("Bob sees the clamped cursor") { bob.others.first?.data.cursorY == 9 }
    }
  }

  @Test("Tile game: two players painting one new square write one entity; the later paint wins; painting your own color clears")
  func tiles() async throws {
    try await withTwoClients { a, b in
      let ann = withDependencies { $0.defaultInstant = a } operation: { TileGameModel(name: "Ann", color: "red", board: "b1") }
      let bob = withDependencies { $0.defaultInstant = b } operation: { TileGameModel(name: "Bob", color: "blue", board: "b1") }
      _ = try await seen("both boards loaded") { !ann.$tiles.isLoading && !bob.$tiles.isLoading }
      // Both paint the same new square at once: one entity, the same color on both boards.
      // (Which paint reaches the server last, so wins, is a race: `paint` returns once queued.)
      try await ann.paint(x: 2, y: 3)
      try await bob.paint(x: 2, y: 3)
      _ = try await seen("both see one square, the same color") {
        ann.tiles.count == 1 && bob.tiles.count == 1 && ann.color(x: 2, y: 3) != nil
          && ann.color(x: 2, y: 3) == bob.color(x: 2, y: 3)
      }
      // The later paint wins: Bob paints over a square he has seen Ann paint.
      try await ann.paint(x: 4, y: 5)
      _ = try await seen("Bob sees Ann's red square") { bob.color(x: 4, y: 5) == "red" }
      try await bob.paint(x: 4, y: 5)
      _ = try await seen("both see it blue") { ann.color(x: 4, y: 5) == "blue" && bob.color(x: 4, y: 5) == "blue" }
      try await bob.paint(x: 4, y: 5)
      _ = try await seen("Bob's second paint clears it for both") {
        ann.color(x: 4, y: 5) == nil && bob.color(x: 4, y: 5) == nil && ann.tiles.count == 1 && bob.tiles.count == 1
      }

      bob.moveSelection(dx: 1, dy: 1)
      bob.moveSelection(dx: 100, dy: -100)
      #expect(bob.selection == (7, 0))
      _ = try await seen("Ann sees Bob's selection") { ann.others.first.map { Int($0.data.cursorX) } == 7 }
    }
  }

  @Test("A square's id is a stable, valid UUID, different per board and place")
  func tileIDs() {
    let id = TileGameModel.tileID(board: "main", x: 1, y: 2)
    #expect(id == TileGameModel.tileID(board: "main", x: 1, y: 2))
    #expect(UUID(uuidString: id) != nil && id == id.lowercased())
    let others = [
      TileGameModel.tileID(board: "main", x: 2, y: 1), TileGameModel.tileID(board: "other", x: 1, y: 2),
      TileGameModel.tileID(board: "main", x: 12, y: 0),
    ]
    #expect(!others.contains(id) && Set(others).count == 3)
  }
}

@MainActor
func withTwoClients(_ body: @MainActor (InstantClient, InstantClient) async throws -> Void) async throws {
  try await withClients(2) { try await body($0[0], $0[1]) }
}

/// `count` clients of one app on a fresh in-memory instant-local, shut down afterwards.
@MainActor
func withClients(_ count: Int, _ body: @MainActor ([InstantClient]) async throws -> Void) async throws {
  try await withInstantLocal { server in
    let port = try #require(await server.port)
    let target = try DemoServer.remote(URL(string: "http://127.0.0.1:\(port)")!)
    let clients = (0..<count).map { _ in target.client() }
    do {
      try await body(clients)
    } catch {
      for client in clients { await client.shutdown() }
      throw error
    }
    for client in clients { await client.shutdown() }
  }
}

/// `until` with the suite's backstop: the whole test suite runs at once on two cores.
@MainActor
func seen(_ what: String, _ condition: @escaping @MainActor @Sendable () -> Bool) async throws -> Duration {
  try await until(what, timeout: backstop, condition)
}
