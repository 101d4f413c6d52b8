package import Foundation
import InstantCore
import InstantDB
import Logging
import NIOConcurrencyHelpers

/// The `client` subcommand: one InstantClient on its own SQLite file, doing what the parent says.
///
/// Commands (one JSON object a line on stdin) and answers (one a line on stdout):
/// - `{"write": n, "ops": [...]}` → `{"enqueued": n, "id": receipt}` once `transact` returned (the write is
///   durable on this device), or `{"failed": n, "error": "..."}`.
/// - `{"offline": true|false}` → `{"ok": true}`.
/// - `{"drain": seconds}` → `{"drained": true|false, "pending": k, "rejected": ["message", ...]}`
///   once every write of this device is acknowledged (or the time is up).
/// - `{"view": true}` → `{"view": data, "pending": hasPendingWrites}`, the latest answer that is not
///   from the cache, or `{"view": null}`.
/// Every refusal is also appended to `<database>.rejected.jsonl` as `{"id", "error", "at"}` (epoch
/// seconds, to line it up with a verbose run's log).
/// It prints `{"ready": true}` once the client exists, and exits when stdin closes.
package enum ChaosClientWorker {
  package static func run(port: Int, database: URL) async {
    var logger = Logger(label: "instant-chaos-client")
    logger.logLevel = ProcessInfo.processInfo.environment["INSTANTDB_LOG_LEVEL"] == nil ? .critical : .error
    let db = InstantClient(
      appId: ChaosRun.appID, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
      websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: .sqlite(database),
      schema: ChaosSchema.client, logger: logger)
    let latest = NIOLockedValueBox<QueryResult?>(nil)
    // Refusals go to a file next to the database as well, so those of a process later killed
    // are not lost to the report.
    let rejectedLog = database.appendingPathExtension("rejected.jsonl")
    let rejected = NIOLockedValueBox<[String]>([])
    let subscription = db.subscribe(ChaosSchema.query)
    let reader = Task {
      for await result in subscription { latest.withLockedValue { $0 = result } }
    }
    let rejections = Task {
      for await write in db.rejectedWrites() {
        rejected.withLockedValue { $0.append(write.error.description) }
        append(
          [
            "id": .string(write.id), "error": .string(write.error.description),
            "at": .number(Date().timeIntervalSince1970),
          ], to: rejectedLog)
      }
    }
    say(["ready": true])
    for await line in standardInputLines() {
      guard let command = try? JSON.parse(line) else {
        say(["error": .string("not JSON: \(line)")])
        continue
      }
      if let n = command["write"] {
        let ops = (command["ops"]?.arrayValue ?? []).compactMap(InstaMLOp.init(wire:))
        do {
          let receipt = try await db.transact(ops)
          say(["enqueued": n, "id": .string(receipt.id)])
        } catch {
          say(["failed": n, "error": .string("\(error)")])
        }
      } else if let offline = command["offline"]?.boolValue {
        await db.setNetworkAvailable(!offline)
        say(["ok": true])
      } else if let seconds = command["drain"]?.numberValue {
        await db.setNetworkAvailable(true)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var pending = await db.pendingWrites
        while pending.contains(where: { $0.state != .synced }), ContinuousClock.now < deadline {
          try? await Task.sleep(for: .milliseconds(20))
          pending = await db.pendingWrites
        }
        let waiting = pending.filter { $0.state != .synced }.count
        say([
          "drained": .bool(waiting == 0), "pending": .number(Double(waiting)),
          "rejected": .array(rejected.withLockedValue { $0 }.map { .string($0) }),
        ])
      } else if command["view"] != nil {
        let result = latest.withLockedValue { $0 }
        if let result, !result.isFromCache, result.error == nil {
          say(["view": result.data, "pending": .bool(result.hasPendingWrites)])
        } else {
          say(["view": .null])
        }
      } else {
        say(["error": .string("unknown command: \(line)")])
      }
    }
    reader.cancel()
    rejections.cancel()
    await db.shutdown()
  }
}

/// Writes one JSON line to stdout, unbuffered (the parent waits for it).
func say(_ message: JSON) {
  FileHandle.standardOutput.write(Data((message.serialized() + "\n").utf8))
}

/// Appends one JSON line to a file.
func append(_ line: JSON, to file: URL) {
  let data = Data((line.serialized() + "\n").utf8)
  if let handle = try? FileHandle(forWritingTo: file) {
    defer { try? handle.close() }
    _ = try? handle.seekToEnd()
    try? handle.write(contentsOf: data)
  } else {
    try? data.write(to: file)
  }
}

/// Lines of stdin, read on a thread of their own; the stream ends when stdin closes.
func standardInputLines() -> AsyncStream<String> {
  AsyncStream { continuation in
    let thread = Thread {
      while let line = readLine() { continuation.yield(line) }
      continuation.finish()
    }
    thread.start()
  }
}
