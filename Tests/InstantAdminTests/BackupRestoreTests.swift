import Foundation
import InstantAdmin
import InstantCore
import InstantDB
@testable import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
import ZIPFoundation
internal import OrderedCollections

/// `instant-local backup` and `restore` on real data files, through a running server.
@Suite("Backup and restore", .timeLimit(.minutes(10)))
struct BackupRestoreTests {
  /// A scratch directory, removed afterwards.
  static func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(newID())", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
  }

  /// Every entry of a zip, by name.
  static func entries(_ url: URL) throws -> OrderedDictionary<String, Data> {
    let archive = try Archive(url: url, accessMode: .read)
    var out: OrderedDictionary<String, Data> = [:]
    for entry in archive {
      var data = Data()
      _ = try archive.extract(entry) { data.append($0) }
      out[entry.path] = data
    }
    return out
  }

  static let rules: JSON = ["todos": ["allow": ["create": "auth.id != null", "update": "auth.id != null"]]]

  /// An app with links in both directions, users, a unicode and a large value, and rules.
  static func populate(_ admin: InstantAdmin) async throws -> (goal: String, todos: [String], user: AdminUser) {
    let goal = newID()
    let todos = [newID(), newID()]
    let owner = newID()
    let user = try await admin.createToken(email: "ada@example.com")
    try await admin.transact([
      .update("goals", .id(goal), ["title": "Grüße 🌍 — 目標", "notes": .string(String(repeating: "x", count: 1 << 20))]),
      .update("todos", .id(todos[0]), ["title": "Run", "done": true, "meta": ["tags": ["a", "b"], "n": 1.5]]),
      .update("todos", .id(todos[1]), ["title": "Swim", "done": false]),
      .update("owners", .id(owner), ["name": "Ada"]),
      .link("goals", .id(goal), ["todos": [.string(todos[0]), .string(todos[1])]]),
      .link("todos", .id(todos[0]), ["owner": .string(owner)]),
    ])
    try await admin.pushRules(rules)
    return (goal, todos, user)
  }

  @Test("backup → restore into a new data file → backup gives the same entities and schema, and the same answers")
  func roundTrip() async throws {
    try await Self.withDirectory { directory in
      let first = directory.appendingPathComponent("first.zip")
      let second = directory.appendingPathComponent("second.zip")
      let query: JSON = ["goals": ["todos": ["owner": [:]]], "owners": ["todos": [:]], "$users": [:]]
      let (app, before) = try await AdminWorld.run(configuration: .testing(dataFile: directory.appendingPathComponent("a.sqlite").path)) {
        world in
        _ = try await Self.populate(world.admin)
        try world.server.apps.backup(appID: world.app.id, to: first)
        return (world.app, try await world.admin.query(query))
      }
      let restoredFile = directory.appendingPathComponent("b.sqlite").path
      let report = try AppCatalog(dataFile: restoredFile).restore(from: first)
      #expect(report.app.id == app.id)
      #expect(report.counts["todos"] == 2)
      #expect(report.counts["$users"] == 1)
      try await withInstantLocal(configuration: .testing(dataFile: restoredFile)) { server in
        let admin = InstantAdmin(appID: report.app.id, adminToken: report.app.adminToken, apiURI: try #require(await server.baseURL))
        let after = try await admin.query(query)
        #expect(after == before)
        try server.apps.backup(appID: report.app.id, to: second)
      }
      let a = try Self.entries(first)
      let b = try Self.entries(second)
      #expect(Array(a.keys) == Array(b.keys))
      for (name, data) in a where name != "config.json" {
        #expect(b[name] == data, "\(name) differs")
      }
      var configA = try JSON.parse(bytes: try #require(a["config.json"])).objectValue ?? [:]
      var configB = try JSON.parse(bytes: try #require(b["config.json"])).objectValue ?? [:]
      #expect(configA.removeValue(forKey: "backupAt") != nil)
      configB.removeValue(forKey: "backupAt")
      #expect(JSON.object(configA) == JSON.object(configB))
      #expect(configA["rules"] == Self.rules)
    }
  }

  @Test("A restored app is whole: rules enforced, users sign in again with the same id, a new admin token")
  func restoredAppIsWhole() async throws {
    try await Self.withDirectory { directory in
      let archive = directory.appendingPathComponent("app.zip")
      let user = try await AdminWorld.run { world in
        let (_, _, user) = try await Self.populate(world.admin)
        try world.server.apps.backup(appID: world.app.id, to: archive)
        return user
      }
      let file = directory.appendingPathComponent("restored.sqlite").path
      let newApp = newID()
      let report = try AppCatalog(dataFile: file).restore(from: archive, appID: newApp, title: "Restored")
      #expect(report.app.id == newApp)
      #expect(report.app.title == "Restored")
      try await withInstantLocal(configuration: .testing(dataFile: file)) { server in
        let api = try #require(await server.baseURL)
        let admin = InstantAdmin(appID: newApp, adminToken: report.app.adminToken, apiURI: api)
        do {
          try await admin.asGuest().transact([.update("todos", .id(newID()), ["title": "guest"])])
          Issue.record("the restored rules were not enforced")
        } catch let error as InstantAdminError {
          #expect(error.isPermissionDenied)
        }
        // The old session is gone; the user signs in again and is the same user.
        #expect(try await admin.user(.refreshToken(try #require(user.refreshToken))) == nil)
        let code = try await admin.generateMagicCode(email: "ada@example.com")
        let again = try await admin.verifyMagicCode(email: "ada@example.com", code: code)
        #expect(again.id == user.id)
        try await admin.asUser(email: "ada@example.com").transact([.update("todos", .id(newID()), ["title": "signed in"])])
      }
    }
  }

  @Test("A malformed archive restores nothing, and an app id in use is refused")
  func refusals() async throws {
    try await Self.withDirectory { directory in
      let archive = directory.appendingPathComponent("app.zip")
      let appID = try await AdminWorld.run { world in
        _ = try await Self.populate(world.admin)
        try world.server.apps.backup(appID: world.app.id, to: archive)
        return world.app.id
      }
      // The same archive with one line of todos cut short.
      let broken = directory.appendingPathComponent("broken.zip")
      let original = try Self.entries(archive)
      let rewritten = try Archive(url: broken, accessMode: .create)
      for (name, data) in original {
        let bytes = name == "entities/todos.jsonl" ? data.prefix(data.count - 10) : data
        try rewritten.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) {
          position, size in bytes.subdata(in: Data.Index(position)..<Data.Index(position) + size)
        }
      }
      let file = directory.appendingPathComponent("target.sqlite").path
      let catalog = try AppCatalog(dataFile: file)
      do {
        _ = try catalog.restore(from: broken)
        Issue.record("a truncated archive was restored")
      } catch {
        #expect("\(error)".contains("entities/todos.jsonl"))
        #expect("\(error)".contains("line"))
      }
      #expect(try catalog.list().isEmpty)
      _ = try catalog.restore(from: archive)
      #expect(try catalog.list().map(\.id) == [appID])
      #expect(throws: InstantLocalError.self) { try catalog.restore(from: archive, appID: appID) }
      #expect(try catalog.list().count == 1)
    }
  }

  @Test("Backups taken while writes flow are each one consistent moment, and do not hold writers up")
  func consistentWhileWriting() async throws {
    try await Self.withDirectory { directory in
      let file = directory.appendingPathComponent("live.sqlite").path
      try await AdminWorld.run(configuration: .testing(dataFile: file)) { world in
        let (a, b) = (newID(), newID())
        try await world.admin.transact([.update("lefts", .id(a), ["n": 0]), .update("rights", .id(b), ["n": 0])])
        // Each transaction moves both halves of the pair, in two namespaces, together.
        let count = Locked(0)
        let writer = Task {
          var n = 0
          while !Task.isCancelled {
            n += 1
            do {
              try await world.admin.transact([
                .update("lefts", .id(a), ["n": .number(Double(n))]), .update("rights", .id(b), ["n": .number(Double(n))]),
              ])
            } catch {
              break  // cancelled mid-request
            }
            count.withLock { $0 = n }
          }
          return count.withLock { $0 }
        }
        var seen: Set<Double> = []
        for index in 0..<8 {
          let before = count.withLock { $0 }
          try await eventually("the writer moves on") { count.withLock { $0 } > before }
          let archive = directory.appendingPathComponent("live-\(index).zip")
          try world.server.apps.backup(appID: world.app.id, to: archive)
          let entries = try Self.entries(archive)
          var values: [Double] = []
          for name in ["entities/lefts.jsonl", "entities/rights.jsonl"] {
            let text = String(decoding: try #require(entries[name]), as: UTF8.self)
            values += try text.split(separator: "\n").compactMap { try JSON.parse(String($0))["entity"]?["n"]?.numberValue }
          }
          #expect(values.count == 2)
          #expect(Set(values).count == 1, "a backup saw the pair half-written: \(values)")
          seen.formUnion(values)
        }
        writer.cancel()
        let written = await writer.value
        #expect(written >= 8)
        #expect(seen.count > 1, "the writes did not go on during the backups")

        // A write while a backup's read is open completes (WAL: the reader holds no writer up).
        let storage = try LocalStorage(path: file, logger: .instantLocalTesting)
        let catalog = AppCatalog(storage: storage, clock: .live, blobDirectory: { _ in nil })
        let committed = Locked(false)
        _ = try catalog.backup(appID: world.app.id, to: directory.appendingPathComponent("seam.zip")) {
          let started = Date()
          let wrote = (try? storage.saveRules(world.app.id, code: ["todos": ["allow": ["view": "true"]]])) != nil
          committed.withLock { $0 = wrote && Date().timeIntervalSince(started) < 1 }
        }
        #expect(committed.withLock { $0 }, "a write waited for the backup's read")
      }
    }
  }
}
