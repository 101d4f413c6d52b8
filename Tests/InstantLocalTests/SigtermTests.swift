import Foundation
import InstantCore
import InstantLocal
import Testing
import TestSupport

/// `instant-local serve` stopped by SIGTERM (what `systemctl stop` sends) while clients write:
/// docs/deploy.md's promise, checked on the real executable.
@Suite("instant-local serve under SIGTERM")
struct SigtermTests {
  @Test("SIGTERM mid-load: the process exits 0, a subscribe-query stream gets its last chunk, every writer's socket ends, and every acknowledged write is there after a restart")
  func sigtermMidLoad() async throws {
    guard ServerProcess.binary != nil else {
      Issue.record("the instant-local executable is not built next to the tests")
      return
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sigterm-\(newID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = dir.appendingPathComponent("data.sqlite").path
    let app = try AppCatalog(dataFile: data).create(title: "Stopped")
    let arguments = ["--port", "0", "--data", data, "--log-level", "notice"]
    let server = try await ServerProcess(arguments: arguments)

    let idAttr = newID()
    let titleAttr = newID()
    let (setup, _) = try await TestSession.connected(port: server.port, appID: app.id)
    let schema = try await setup.request(transact([blobAttr(idAttr, "goals", "id", unique: true), blobAttr(titleAttr, "goals", "title")]))
    #expect(schema["op"] == "transact-ok")

    // Three writers, each sending its next write when the last is acknowledged, until the socket ends.
    let acknowledged = Locked<[String]>([])
    let started = AsyncStream<Void>.makeStream()
    let port = server.port
    let signal = started.continuation
    let writers = (0..<3).map { _ in
      Task {
        guard let (session, _) = try? await TestSession.connected(port: port, appID: app.id) else { return }
        var first = true
        while true {
          let id = newID()
          guard let reply = try? await session.request(transact(createEntity(id, idAttr: idAttr, [titleAttr: "kept"])), timeout: .seconds(10)),
            reply["op"] == "transact-ok"
          else { break }
          acknowledged.withLock { $0.append(id) }
          if first {
            signal.yield()
            first = false
          }
        }
        await session.close()
      }
    }
    var iterator = started.stream.makeAsyncIterator()
    for _ in 0..<3 { await iterator.next() }

    // A stream open when the signal comes; the signal is sent once it has its first result.
    let stream = SubscribeQueryTests.Stream(port: server.port, app: app)
    try await stream.open(["goals": [:]]) { session, _ in
      _ = await session.nextEvent()
      _ = await session.nextEvent()
      server.process.terminate()
      let rest = await session.readToEnd()
      #expect(rest.hasSuffix("0\r\n\r\n"), "the stream ends with its last chunk: \(rest.suffix(40).debugDescription)")
      #expect(!session.closedByDeadline)
    }
    for writer in writers { await writer.value }
    await setup.close()
    let process = server.process
    await offThePool { process.waitUntilExit() }
    #expect(server.process.terminationStatus == 0, "exit status \(server.process.terminationStatus): \(server.stderr.text.suffix(500))")
    let written = acknowledged.withLock { $0 }
    #expect(written.count >= 3, "writes were acknowledged before the signal: \(written.count)")

    // Every acknowledged write is on disk.
    let again = try await ServerProcess(arguments: arguments)
    defer { again.terminate() }
    let (reader, _) = try await TestSession.connected(port: again.port, appID: app.id)
    let result = try await reader.request(["op": "add-query", "q": ["goals": [:]]])
    let rows = triples(result["result"])
    let lost = written.filter { id in !rows.contains { $0[0] == .string(id) && $0[1] == .string(idAttr) } }
    #expect(lost.isEmpty, "\(lost.count) of \(written.count) acknowledged writes lost")
    await reader.close()
  }
}
