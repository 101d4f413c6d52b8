import CMallocStats
import Foundation
import InstantLocal
import Logging
import Observation
import SharingInstant

// 1. `withLock` one-row edit in an N-row `.instantSync` collection: the time until the value is
//    updated and the write computed (`withLock` returns), and until the write is queued (`save()`
//    resumes). Offline client with in-memory storage, so the figure is the keys' own cost plus the
//    client's enqueue, not the disk's.
// 2. Two clients through the keys and an in-process instant-local on loopback: A's `withLock`
//    edit → B's key holds the new value (observed through Observation, as a view would).
// 3. `withLock` on the main actor while another device streams creates into the key, which grows
//    from 20 rows to `rows` (2,000 in the issue): how long each call holds the main thread.
// 4. A key's first value over `rows` rows already on the server, and the heap it holds: a fresh
//    client's `.instantQuery` key (query, transfer, the client's store, decoding), then a second
//    key (`.instantSync`) over the same query on that client (decoding only), whose heap growth
//    divided by the rows is what a key holds per row.
// 5. Part 2 with InstantDB's own JS client (`@instantdb/core`) subscribed to the same query on the
//    same server: for each of A's edits, the time until B's key holds it and until the JS client's
//    `subscribeQuery` callback sees it. The JS client is not ours to commit: it runs as a peer
//    process whose command line is in `INSTANT_JS_BENCH_PEER` (BENCHMARKS.md gives its protocol).
// Usage: sharing-instant-keys-bench [rows] [edits] [part: 1, 2, 3, 4 or 5; 1 and 2 by default]

struct Row: EntityIdentifiable, Equatable {
  static let namespace = "rows"
  var id: String = UUID().uuidString.lowercased()
  var title: String
  var done = false
  var rank: Double
}

/// Prints at once (stdout may be a file, and a run may be cut short).
func say(_ line: String) {
  try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}

func milliseconds(_ value: Duration) -> Double {
  Double(value.components.attoseconds) / 1e15 + Double(value.components.seconds) * 1000
}

func percentile(_ sorted: [Duration], _ p: Double) -> String {
  String(format: "%.3f ms", milliseconds(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]))
}

/// Waits until `condition` holds: re-checked after each change Observation reports. Its
/// notifications come before the change (will-set), so after one the new value is polled for
/// briefly; a change whose notification fired just before tracking resumed is caught by a 2 ms
/// re-check, so the wait never hangs and is off by at most that in the rare case.
func until(_ condition: @escaping @Sendable () -> Bool) async {
  while !condition() {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let once = NSLock()
      nonisolated(unsafe) var resumed = false
      let resume: @Sendable () -> Void = {
        once.lock()
        defer { once.unlock() }
        if !resumed {
          resumed = true
          continuation.resume()
        }
      }
      withObservationTracking { _ = condition() } onChange: { resume() }
      if condition() { resume() }
      Task {
        try? await Task.sleep(for: .milliseconds(2))
        resume()
      }
    }
    let deadline = ContinuousClock.now + .milliseconds(1)
    while !condition() && ContinuousClock.now < deadline { await Task.yield() }
  }
}

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let rows = arguments.first ?? 1000
let edits = arguments.dropFirst().first ?? 1000
let part = arguments.dropFirst(2).first ?? 0
let clock = ContinuousClock()

if part == 0 || part == 1 {
  let client = InstantClient.offline(appId: "keys-bench")
  let collection = Shared(.instantSync(EntityKey<Row>(namespace: "rows"), client: client))
  collection.withLock { $0.append(contentsOf: (0..<rows).map { Row(title: "row \($0)", rank: Double($0)) }) }
  try await collection.save()
  var updated: [Duration] = []
  var queued: [Duration] = []
  for edit in 0..<edits {
    let start = clock.now
    collection.withLock { $0[edit % rows].title = "edit \(edit)" }
    updated.append(clock.now - start)
    try await collection.save()
    queued.append(clock.now - start)
  }
  updated.sort()
  queued.sort()
  say("withLock one-row edit, \(rows) rows, \(edits) edits")
  say("  value updated + write computed: p50 \(percentile(updated, 0.5))  p90 \(percentile(updated, 0.9))")
  say("  write queued (save resumes):    p50 \(percentile(queued, 0.5))  p90 \(percentile(queued, 0.9))")
  await client.shutdown()
}

let benchApp = "0b6a2b1e-3a55-4a63-9f0e-5a1c2d3e4f51"

/// An in-process instant-local on loopback and two clients of one app on it.
func twoClients() async throws -> (InstantLocalServer, InstantClient, InstantClient) {
  var logger = Logger(label: "instant-local")
  logger.logLevel = .critical
  let server = try InstantLocalServer(configuration: .init(port: 0, storage: .memory), logger: logger)
  let port = try await server.start()
  func client() -> InstantClient {
    InstantClient(
      appId: benchApp, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
      websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: .memory)
  }
  let (a, b) = (client(), client())
  return (server, a, b)
}

/// A's `.instantSync` key with `rows` rows written through it (500 a save), and B's `.instantQuery`
/// key over the same query.
func seededKeys(_ a: InstantClient, _ b: InstantClient) async throws -> (Shared<IdentifiedArrayOf<Row>>, SharedReader<IdentifiedArrayOf<Row>>, [Row]) {
  let key = EntityKey<Row>(namespace: "rows")
  let writer = Shared(.instantSync(key, client: a))
  let reader = SharedReader(.instantQuery(key, client: b))
  let seed = (0..<rows).map { Row(title: "row \($0)", rank: Double($0)) }
  for chunk in stride(from: 0, to: rows, by: 500) {
    writer.withLock { $0.append(contentsOf: seed[chunk..<min(rows, chunk + 500)]) }
    try await writer.save()
  }
  return (writer, reader, seed)
}

if part == 0 || part == 2 {
  let (server, a, b) = try await twoClients()
  let (writer, reader, seed) = try await seededKeys(a, b)
  let watchdog = Task {
    try await Task.sleep(for: .seconds(5))
    say("  after 5 s B has \(reader.wrappedValue.count) rows, A \(writer.wrappedValue.count)")
  }
  await until { reader.wrappedValue.count == rows }
  watchdog.cancel()
  let samples = min(edits, 300)
  var latencies: [Duration] = []
  for edit in 0..<samples {
    let id = seed[edit % rows].id
    let title = "sync \(edit)"
    let start = clock.now
    writer.withLock { $0[id: id]?.title = title }
    await until { reader.wrappedValue[id: id]?.title == title }
    latencies.append(clock.now - start)
  }
  latencies.sort()
  say("two clients through instant-local, \(rows) rows, \(samples) edits")
  say("  A's withLock → B's key updated:   p50 \(percentile(latencies, 0.5))  p90 \(percentile(latencies, 0.9))")
  await a.shutdown()
  await b.shutdown()
  await server.stop()
}

/// A flag one task sets and another reads.
final class Flag: @unchecked Sendable {
  // Read and written under `lock` only.
  private let lock = NSLock()
  private var raised = false
  func raise() { lock.withLock { raised = true } }
  var isRaised: Bool { lock.withLock { raised } }
}

if part == 3 {
  let (server, a, b) = try await twoClients()
  let key = EntityKey<Row>(namespace: "rows")
  let editor = Shared(.instantSync(key, client: b))
  editor.withLock { $0.append(contentsOf: (0..<20).map { Row(title: "row \($0)", rank: Double($0)) }) }
  try await editor.save()
  await until { editor.wrappedValue.count == 20 }
  // The other device creates the rest, one transaction every 2 ms, each seen by the editor's key.
  let streamed = Flag()
  let streaming = Task {
    defer { streamed.raise() }
    for index in 20..<rows {
      try await a.transact(.create("rows", .id(UUID().uuidString.lowercased()), ["title": .string("row \(index)"), "rank": .number(Double(index)), "done": false]))
      try await Task.sleep(for: .milliseconds(2))
    }
  }
  var held: [Duration] = []
  var edit = 0
  var end: ContinuousClock.Instant?
  // Until the key holds every row, or 5 s after the last create (an edit that deleted rows would
  // leave it short: reported below).
  while !(await MainActor.run { editor.wrappedValue.count >= rows }) {
    if end == nil, streamed.isRaised { end = clock.now + .seconds(5) }
    if let end, clock.now > end { break }
    let duration = await MainActor.run {
      let start = clock.now
      editor.withLock { value in
        let index = edit % value.count
        value[index].done.toggle()
      }
      return clock.now - start
    }
    held.append(duration)
    edit += 1
    try await Task.sleep(for: .milliseconds(5))
  }
  try await streaming.value
  held.sort()
  // With the edits over, how long until the key holds every row.
  let caughtUp = clock.now
  while await MainActor.run(body: { editor.wrappedValue.count < rows }), clock.now - caughtUp < .seconds(30) {
    try await Task.sleep(for: .milliseconds(10))
  }
  let lag = clock.now - caughtUp
  let shown = await MainActor.run { editor.wrappedValue.count }
  let stored = try await a.queryOnce(["rows": [:]]).data["rows"]?.arrayValue?.count ?? 0
  say("withLock on the main actor while another device creates \(rows - 20) rows into the key, \(held.count) edits")
  say("  rows: \(rows) created, \(stored) on the server, \(shown) in the key \(String(format: "%.0f", milliseconds(lag))) ms after the last edit")
  say("  main thread held: p50 \(percentile(held, 0.5))  p90 \(percentile(held, 0.9))  p99 \(percentile(held, 0.99))  max \(percentile(held, 1))")
  await a.shutdown()
  await b.shutdown()
  await server.stop()
}

if part == 4 {
  let (server, a, b) = try await twoClients()
  for chunk in stride(from: 0, to: rows, by: 1000) {
    try await a.transact((chunk..<min(rows, chunk + 1000)).map { index in
      .create("rows", .id(UUID().uuidString.lowercased()), ["title": .string("row \(index)"), "rank": .number(Double(index)), "done": false])
    })
  }
  let acknowledged = try await a.queryOnce(["rows": [:]]).data["rows"]?.arrayValue?.count ?? 0
  let key = EntityKey<Row>(namespace: "rows")
  // Each heap figure is read once the process is quiet: the client saves a result to its cache a
  // second after it changes, and the server's and the writer's work is over.
  func quietHeap() async throws -> Int {
    try await Task.sleep(for: .seconds(3))
    return Int(cmallocstats_in_use())
  }
  let heapBefore = try await quietHeap()
  var start = clock.now
  let reader = SharedReader(.instantQuery(key, client: b))
  await until { reader.wrappedValue.count == rows }
  let fresh = clock.now - start
  let heapWithReader = try await quietHeap()
  start = clock.now
  let second = Shared(.instantSync(key, client: b))
  await until { second.wrappedValue.count == rows }
  let decoded = clock.now - start
  let heapWithBoth = try await quietHeap()
  let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
  say("a key's first value over \(rows) rows (\(acknowledged) on the server)")
  say("  fresh client's key: \(String(format: "%.0f", milliseconds(fresh))) ms, heap +\(mib(heapWithReader - heapBefore)) (client store, result, key)")
  say("  second key on that client: \(String(format: "%.0f", milliseconds(decoded))) ms, heap +\(mib(heapWithBoth - heapWithReader)) = \(String(format: "%.0f", Double(heapWithBoth - heapWithReader) / Double(rows))) bytes per row held by a key")
  await a.shutdown()
  await b.shutdown()
  await server.stop()
}

/// InstantDB's JS client as a peer process speaking JSON lines (see BENCHMARKS.md): it subscribes
/// to `{rows: {}}` and reports, with its own wall-clock stamp, when its callback first sees a row
/// with a given title.
final class JSPeer: @unchecked Sendable {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  // Read and written under `lock` only.
  private let lock = NSLock()
  private var count = 0
  private var seen: [String: Double] = [:]
  private var failure: String?

  init(command: String, port: Int, app: String) throws {
    let words = command.split(separator: " ").map(String.init)
    process.executableURL = URL(fileURLWithPath: words[0])
    process.arguments = Array(words.dropFirst()) + [
      "--api", "http://127.0.0.1:\(port)", "--ws", "ws://127.0.0.1:\(port)/runtime/session", "--app", app,
    ]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let handle = output.fileHandleForReading
    Thread.detachNewThread { [self] in
      var buffer = Data()
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { return }
        buffer.append(chunk)
        while let newline = buffer.firstIndex(of: 10) {
          let line = buffer[buffer.startIndex..<newline]
          buffer = Data(buffer[buffer.index(after: newline)...])
          guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
          lock.withLock {
            switch event["event"] as? String {
            case "result": count = event["count"] as? Int ?? count
            case "seen": if let title = event["title"] as? String { seen[title] = event["at"] as? Double }
            case "error": failure = event["message"] as? String
            default: break
            }
          }
        }
      }
    }
  }

  var rows: Int { lock.withLock { count } }
  var error: String? { lock.withLock { failure } }
  func seenAt(_ title: String) -> Double? { lock.withLock { seen[title] } }

  func send(_ command: [String: String]) {
    let data = try! JSONSerialization.data(withJSONObject: command)
    input.fileHandleForWriting.write(data + Data([10]))
  }

  func quit() {
    send(["cmd": "quit"])
    process.waitUntilExit()
  }
}

/// Polls `condition` every millisecond for up to `seconds`; false when it never held.
func poll(seconds: Double, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while !condition() {
    if ContinuousClock.now > deadline { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

if part == 5 {
  guard let command = ProcessInfo.processInfo.environment["INSTANT_JS_BENCH_PEER"], !command.isEmpty else {
    say("part 5 needs INSTANT_JS_BENCH_PEER: the command line of a peer that runs @instantdb/core (BENCHMARKS.md)")
    exit(2)
  }
  let (server, a, b) = try await twoClients()
  guard let port = await server.port else { fatalError("the server has no port") }
  let (writer, reader, seed) = try await seededKeys(a, b)
  await until { reader.wrappedValue.count == rows }
  let peer = try JSPeer(command: command, port: port, app: benchApp)
  guard await poll(seconds: 60, { peer.rows == rows }) else {
    say("the JS peer has \(peer.rows) of \(rows) rows after 60 s\(peer.error.map { ": \($0)" } ?? "")")
    exit(1)
  }
  let samples = min(edits, 300)
  var ours: [Duration] = []
  var theirs: [Duration] = []
  for edit in 0..<samples {
    let id = seed[edit % rows].id
    let title = "both \(edit)"
    peer.send(["cmd": "watch", "id": id, "title": title])
    let wall = Date().timeIntervalSince1970 * 1000
    let start = clock.now
    writer.withLock { $0[id: id]?.title = title }
    await until { reader.wrappedValue[id: id]?.title == title }
    ours.append(clock.now - start)
    guard await poll(seconds: 30, { peer.seenAt(title) != nil }), let at = peer.seenAt(title) else {
      say("the JS peer did not see edit \(edit) within 30 s\(peer.error.map { ": \($0)" } ?? "")")
      exit(1)
    }
    theirs.append(.microseconds(Int((at - wall) * 1000)))
  }
  ours.sort()
  theirs.sort()
  say("A's withLock → B's key and → InstantDB's JS client, same server, same edits, \(rows) rows, \(samples) edits")
  say("  B's key (ours):            p50 \(percentile(ours, 0.5))  p90 \(percentile(ours, 0.9))")
  say("  JS subscribeQuery callback: p50 \(percentile(theirs, 0.5))  p90 \(percentile(theirs, 0.9))")
  peer.quit()
  await a.shutdown()
  await b.shutdown()
  await server.stop()
}
