import Foundation
import InstantCore
import TestSupport
import Testing

@testable import InstantDB
internal import OrderedCollections
import InstantLocal

/// What a user change does to the local state.
@Suite("Auth and local state", .timeLimit(.minutes(10)))
struct AuthLocalStateTests {
  @Test("A guest upgraded by a magic code keeps its id, and so its offline writes, which then sync")
  func guestUpgradeKeepsWrites() async throws {
    try await withServer { server in
      let db = server.client()
      defer { Task { await db.shutdown() } }
      let guest = try await db.signInAsGuest()
      try await eventually("connected as the guest") { await db.status == .authenticated }
      await db.setNetworkAvailable(false)
      let write = try await db.transact(.update("notes", .id(InstantID.make()), ["v": 1]))
      try await db.sendMagicCode(email: "g@example.com")
      let code = try #require(await server.server.lastMagicCode(appID: LocalServer.appID, email: "g@example.com"))
      let user = try await db.signInWithMagicCode(email: "g@example.com", code: code)
      #expect(user.id == guest.id)
      #expect(await db.pendingWrites.map(\.id) == [write.id])
      await db.setNetworkAvailable(true)
      try await write.synced()
    }
  }

  @Test("A user change deletes the cached results on disk")
  func cacheCleared() async throws {
    try await withServer { server in
      let folder = temporaryDirectory()
      let db = server.client(storage: .sqlite(folder.appendingPathComponent("c.sqlite")))
      defer { Task { await db.shutdown() } }
      try await db.transact(.update("notes", .id(InstantID.make()), ["v": 1])).synced()
      let watch = Watcher(db.subscribe(["notes": [:]]))
      try await watch.next { !$0.isFromCache && $0.rows("notes").count == 1 }
      let storage = db.reactor.storage
      try await eventually("the result is saved for offline start") { ((try? storage.loadQueries()) ?? [:]).count == 1 }
      try await db.signInAsGuest()
      let left = try storage.loadQueries()
      #expect(left.isEmpty)
      // The subscription is answered again, for the new user.
      try await eventually("connected as the guest") { await db.status == .authenticated }
      try await watch.next { !$0.isFromCache && $0.rows("notes").count == 1 }
    }
  }
}
