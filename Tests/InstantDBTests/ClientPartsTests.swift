import Foundation
import GRDB
import InstantCore
import Testing

@testable import InstantDB
import Logging

/// The small rules docs/client.md states, checked on their own.
@Suite("Client parts")
struct ClientPartsTests {
  @Test("Reconnect waits 0, 1, 2 … 10, 10 s and starts again at 0 after init-ok")
  func backoff() {
    var backoff = ReconnectBackoff()
    let waits = (0..<13).map { _ in backoff.next() }
    #expect(waits == (0...10).map { Duration.seconds($0) } + [.seconds(10), .seconds(10)])
    backoff.reset()
    #expect(backoff.next() == .zero)
  }

  @Test("INSTANTDB_LOG_LEVEL and INSTANTDB_DEBUG choose the log level; errors only by default")
  func logLevel() {
    #expect(ClientLog.level([:]) == .error)
    #expect(ClientLog.level(["INSTANTDB_LOG_LEVEL": "info"]) == .info)
    #expect(ClientLog.level(["INSTANTDB_LOG_LEVEL": "DEBUG"]) == .debug)
    #expect(ClientLog.level(["INSTANTDB_LOG_LEVEL": "off"]) == .critical)
    #expect(ClientLog.level(["INSTANTDB_LOG_LEVEL": "nonsense"]) == .error)
    #expect(ClientLog.level(["INSTANTDB_LOG_LEVEL": "off", "INSTANTDB_DEBUG": "1"]) == .debug)
  }

  @Test("Tokens never reach a log line, even at debug")
  func redaction() {
    let frame: JSON = ["op": "init", "app-id": "a", "refresh-token": "secret-1", "__admin-token": "secret-2"]
    let logged = Reactor.redacted(frame).serialized()
    #expect(!logged.contains("secret"))
    #expect(logged.contains("<redacted>"))
    #expect(Reactor.redacted(["op": "add-query"]) == ["op": "add-query"])
  }

  @Test("A re-send drops create modes only")
  func resendFrame() {
    let steps: [JSON] = [
      ["add-triple", "e", "a", "v", ["mode": "create"]], ["add-triple", "e", "b", 1, ["mode": "update"]],
      ["delete-entity", "e", "todos"],
    ]
    let m = PendingMutation(id: "w", order: 1, created: 0, steps: steps)
    #expect(m.frame(resend: false).frame["tx-steps"] == .array(steps))
    #expect(
      m.frame(resend: true).frame["tx-steps"]
        == [["add-triple", "e", "a", "v"], ["add-triple", "e", "b", 1, ["mode": "update"]], ["delete-entity", "e", "todos"]])
  }

  @Test("A database file another connection holds for a moment is waited for, not mistaken for unreadable")
  func busyDatabase() async throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("a.sqlite")
    try fileWithOneWrite(file)
    // The exclusive lock a closing connection takes to checkpoint, held for half a second.
    let other = try DatabaseQueue(path: file.path)
    try await other.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
      try db.execute(sql: "BEGIN EXCLUSIVE")
      try db.execute(sql: "COMMIT")  // the lock stays until the connection closes
    }
    // Released from a thread of its own: `make` below blocks this task's thread while it waits,
    // and with the whole suite on two cores a task meant to release the lock could wait its turn
    // for longer than the busy timeout.
    let released = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 0.5)
      try? other.close()
      released.signal()
    }
    let (storage, saved) = ClientStorage.make(.sqlite(file))
    released.wait()
    #expect(storage.problem == nil, "\(String(describing: storage.problem))")
    #expect(saved.mutations.map(\.id) == ["m1"])
    #expect(!FileManager.default.fileExists(atPath: file.path + ".unreadable"), "nothing moved aside")
  }

  @Test("A file that opens but cannot be read as it is never closes the lock's descriptor twice")
  func unreadableRowsCloseTheLockOnce() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("a.sqlite")
    try fileWithOneWrite(file) { try $0.db.write { try $0.execute(sql: "UPDATE mutation SET steps = 'not json'") } }
    let (storage, saved) = ClientStorage.make(.sqlite(file))
    #expect(storage.problem?.kind == .repaired, "the one unreadable row is dropped, the file kept")
    #expect(saved.mutations.isEmpty)
    // The storage's lock descriptor must still be the lock file: had reading the file closed it
    // already, the next file opened (SQLite's own) would have taken its number, and the storage
    // would later close that file instead — by then perhaps a socket of the process.
    let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(storage.lockFD)")
    #expect(target.hasSuffix("a.sqlite.lock"), "the lock's descriptor now names \(target)")
  }

  /// A client database at `file` holding one queued write, `m1`, then changed by `alter`, and
  /// released for the next client.
  private func fileWithOneWrite(_ file: URL, alter: (ClientStorage) throws -> Void = { _ in }) throws {
    let (storage, _) = ClientStorage.make(.sqlite(file))
    try storage.insert(PendingMutation(id: "m1", order: 1, created: 0, steps: [["add-triple", "e", "a", 1]]))
    try alter(storage)
    storage.releaseLock()
  }
}


/// A damaged database is never removed without a copy of it that was checked.
@Suite("Damaged database files")
struct DamagedFileTests {
  struct DiskFull: Error {}
  let garbage = Data(repeating: 0x5A, count: 8192)

  private func damagedFile() throws -> URL {
    let file = temporaryDirectory().appendingPathComponent("a.sqlite")
    try garbage.write(to: file)
    return file
  }

  private func leftovers(beside file: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
      .filter { $0.contains("unreadable") }
  }

  @Test("When the copy aside fails, the file is left as it is and the client keeps to memory")
  func failedCopy() throws {
    let file = try damagedFile()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let (storage, saved) = ClientStorage.make(.sqlite(file), copy: { _, _ in throw DiskFull() })
    #expect(storage.problem?.kind == .unavailable)
    #expect(storage.problem?.reason.contains("DiskFull") == true)
    #expect(try Data(contentsOf: file) == garbage, "the damaged file is untouched")
    #expect(saved.mutations.isEmpty)
    #expect(try leftovers(beside: file).isEmpty)
  }

  @Test("A copy that is not the whole file counts as failed")
  func truncatedCopy() throws {
    let file = try damagedFile()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let (storage, _) = ClientStorage.make(.sqlite(file)) { _, to in
      try Data(repeating: 0x5A, count: 100).write(to: URL(fileURLWithPath: to))
    }
    #expect(storage.problem?.kind == .unavailable)
    #expect(try Data(contentsOf: file) == garbage)
    #expect(try leftovers(beside: file).isEmpty, "the partial copy is removed")
  }

  @Test("With a good copy the damaged file is replaced and the copy kept")
  func goodCopy() throws {
    let file = try damagedFile()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let (storage, _) = ClientStorage.make(.sqlite(file))
    #expect(storage.problem?.kind == .unreadable)
    let movedTo = try #require(storage.problem?.movedTo)
    #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == garbage)
  }
}
