// instant-local-bench: write on session A → `refresh-ok` on session B, with 1, 10 and 100
// subscribed sessions (or those given: `instant-local-bench 200 0 1000`), and single-writer
// transactions per second, against an embedded instant-local on loopback over real WebSockets.
// Run: swift run -c release instant-local-bench
//
// INSTANT_LOCAL_BENCH_RULES=owner runs it under an owner rule on every namespace
// (`auth.id == data.creatorId`, every session signed in as the entities' owner); `ref` under a
// rule that follows a link to 1,000 entities (`auth.id in data.ref('members.id')`).
//
// INSTANT_LOCAL_BENCH_FILES=64 measures `$files` upload and download MiB/s instead (FilesBench.swift);
// INSTANT_LOCAL_BENCH_BACKUP=100000 backup and restore throughput for that many entities (BackupBench.swift).
import Foundation
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import HummingbirdWSClient
import InstantCore
import InstantLocal
import Logging
internal import NIOWebSocket

/// A bare WebSocket client: every received text frame is delivered with its arrival time.
final class BenchSession: Sendable {
  let received: AsyncStream<(String, ContinuousClock.Instant)>
  private let outgoing: AsyncStream<String>.Continuation
  private let task: Task<Void, Never>

  init(port: Int) {
    let (inbox, inboxContinuation) = AsyncStream<(String, ContinuousClock.Instant)>.makeStream()
    let (stream, continuation) = AsyncStream<String>.makeStream()
    received = inbox
    outgoing = continuation
    task = Task {
      var logger = Logger(label: "bench-client")
      logger.logLevel = .critical
      _ = try? await WebSocketClient.connect(
        url: "ws://127.0.0.1:\(port)/runtime/session", configuration: .init(maxFrameSize: 1 << 24), logger: logger
      ) { inbound, outbound, _ in
        let writer = Task {
          for await text in stream { try? await outbound.write(.text(text)) }
          try? await outbound.close(.normalClosure, reason: nil)
        }
        do {
          for try await message in inbound.messages(maxSize: 1 << 24) {
            if case let .text(text) = message { inboxContinuation.yield((text, .now)) }
          }
        } catch {}
        writer.cancel()
      }
      inboxContinuation.finish()
    }
  }

  func send(_ text: String) { outgoing.yield(text) }

  func close() async {
    outgoing.finish()
    await task.value
  }
}

/// Reads `session`'s frames until one starts with `{"op":"<op>"`; returns its arrival time.
func waitFor(_ op: String, on iterator: inout AsyncStream<(String, ContinuousClock.Instant)>.AsyncIterator) async -> ContinuousClock.Instant {
  let prefix = "{\"op\":\"\(op)\""
  while let (text, at) = await iterator.next() {
    if text.hasPrefix(prefix) { return at }
  }
  fatalError("socket closed while waiting for \(op)")
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func micros(_ d: Duration) -> Double {
  Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
}

/// The benchmark's app, attrs and entities.
enum Fixture {
  static let appID = "5b1c6f7e-0000-4000-8000-00000000b3c4"
  static let idAttr = UUID().uuidString.lowercased()
  static let titleAttr = UUID().uuidString.lowercased()
  static let entities = (0..<10).map { _ in UUID().uuidString.lowercased() }

  static let creatorAttr = UUID().uuidString.lowercased()
  static let membersAttr = UUID().uuidString.lowercased()
  static let memberIDAttr = UUID().uuidString.lowercased()
  /// The refresh token every session signs in with (under rules).
  nonisolated(unsafe) static var refreshToken: String?

  static func initMessage() -> String {
    let token = refreshToken.map { #","refresh-token":"\#($0)""# } ?? ""
    return #"{"op":"init","client-event-id":"i","app-id":"\#(appID)","versions":{"@instantdb/core":"v1.0.65"}\#(token)}"#
  }

  /// Signs in a guest over HTTP: its user id and refresh token.
  static func signIn(port: Int) async throws -> (id: String, token: String) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/runtime/auth/sign_in_guest")!)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"app-id":"\#(appID)"}"#.utf8)
    let (data, _) = try await URLSession.shared.data(for: request)
    let user = try JSON.parse(bytes: data)["user"]
    guard let id = user?["id"]?.stringValue, let token = user?["refresh_token"]?.stringValue else {
      throw CocoaError(.coderReadCorrupt)
    }
    return (id, token)
  }

  static func transact(_ i: Int) -> String {
    let e = entities[i % entities.count]
    return #"{"op":"transact","client-event-id":"t\#(i)","tx-steps":[["add-triple","\#(e)","\#(titleAttr)","v\#(i)"]]}"#
  }
}

/// Runs every measurement and prints the table.
func runBenchmark() async throws {
  let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("instant-local-bench-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: dataDir) }
  var logger = Logger(label: "instant-local")
  logger.logLevel = .critical
  // INSTANT_LOCAL_BENCH_MEMORY=1 measures without SQLite file I/O, to isolate its share.
  let inMemory = ProcessInfo.processInfo.environment["INSTANT_LOCAL_BENCH_MEMORY"] == "1"
  let storage: InstantLocalConfiguration.Storage =
    inMemory ? .memory : .file(dataDir.appendingPathComponent("bench.sqlite").path)
  let server = try InstantLocalServer(
    configuration: .init(port: 0, storage: storage, maxMessageBytes: 1 << 24),
    logger: logger)
  let port = try await server.start()
  let rulesMode = ProcessInfo.processInfo.environment["INSTANT_LOCAL_BENCH_RULES"] ?? "none"
  var owner = "nobody"
  if rulesMode != "none" {
    let user = try await Fixture.signIn(port: port)
    owner = user.id
    Fixture.refreshToken = user.token
  }

  let arguments = CommandLine.arguments
  let writes = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
  // Optional: that many more entities (two triples each) in another namespace, to see how the
  // store's size affects each write.
  let extraEntities = arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0
  // Optional: the subscribed-session counts to measure, comma-separated (default 1,10,100).
  let sessionCounts = arguments.count > 3 ? arguments[3].split(separator: ",").compactMap { Int($0) } : [1, 10, 100]

  // Schema and ten entities.
  let writer = BenchSession(port: port)
  var writerInbox = writer.received.makeAsyncIterator()
  writer.send(Fixture.initMessage())
  _ = await waitFor("init-ok", on: &writerInbox)
  var setup = #"[["add-attr",{"id":"\#(Fixture.idAttr)","forward-identity":["\#(UUID().uuidString.lowercased())","bench","id"],"value-type":"blob","cardinality":"one","unique?":true,"index?":true}],"#
  setup += #"["add-attr",{"id":"\#(Fixture.titleAttr)","forward-identity":["\#(UUID().uuidString.lowercased())","bench","title"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false}]"#
  setup += #",["add-attr",{"id":"\#(Fixture.creatorAttr)","forward-identity":["\#(UUID().uuidString.lowercased())","bench","creatorId"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false}]"#
  for e in Fixture.entities {
    setup += #",["add-triple","\#(e)","\#(Fixture.idAttr)","\#(e)"],["add-triple","\#(e)","\#(Fixture.titleAttr)","start"]"#
    setup += #",["add-triple","\#(e)","\#(Fixture.creatorAttr)","\#(owner)"]"#
  }
  if rulesMode == "ref" {
    // Each entity links to 1,000 members; the owner is the last of them.
    setup += #",["add-attr",{"id":"\#(Fixture.memberIDAttr)","forward-identity":["\#(UUID().uuidString.lowercased())","members","id"],"value-type":"blob","cardinality":"one","unique?":true,"index?":true}]"#
    setup += #",["add-attr",{"id":"\#(Fixture.membersAttr)","forward-identity":["\#(UUID().uuidString.lowercased())","bench","members"],"reverse-identity":["\#(UUID().uuidString.lowercased())","members","groups"],"value-type":"ref","cardinality":"many","unique?":false,"index?":false}]"#
    let members = (0..<999).map { _ in UUID().uuidString.lowercased() } + [owner]
    for m in members { setup += #",["add-triple","\#(m)","\#(Fixture.memberIDAttr)","\#(m)"]"# }
    for e in Fixture.entities {
      for m in members { setup += #",["add-triple","\#(e)","\#(Fixture.membersAttr)","\#(m)"]"# }
    }
  }
  if extraEntities > 0 {
    let fillerID = UUID().uuidString.lowercased()
    let fillerValue = UUID().uuidString.lowercased()
    setup += #",["add-attr",{"id":"\#(fillerID)","forward-identity":["\#(UUID().uuidString.lowercased())","filler","id"],"value-type":"blob","cardinality":"one","unique?":true,"index?":true}]"#
    setup += #",["add-attr",{"id":"\#(fillerValue)","forward-identity":["\#(UUID().uuidString.lowercased())","filler","value"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false}]"#
    for i in 0..<extraEntities {
      let e = UUID().uuidString.lowercased()
      setup += #",["add-triple","\#(e)","\#(fillerID)","\#(e)"],["add-triple","\#(e)","\#(fillerValue)",\#(i)]"#
    }
  }
  setup += "]"
  writer.send(#"{"op":"transact","client-event-id":"setup","tx-steps":\#(setup)}"#)
  _ = await waitFor("transact-ok", on: &writerInbox)
  switch rulesMode {
  case "owner": try await server.setRules(["$default": ["allow": ["$default": "auth.id == data.creatorId"]]])
  case "ref": try await server.setRules(["bench": ["allow": ["$default": "auth.id in data.ref('members.id')"]]])
  default: break
  }

  var txCounter = 0
  var rows: [String] = []

  for subscribers in sessionCounts {
    var sessions: [BenchSession] = []
    var inboxes: [AsyncStream<(String, ContinuousClock.Instant)>.AsyncIterator] = []
    for _ in 0..<subscribers {
      let s = BenchSession(port: port)
      var inbox = s.received.makeAsyncIterator()
      s.send(Fixture.initMessage())
      _ = await waitFor("init-ok", on: &inbox)
      s.send(#"{"op":"add-query","client-event-id":"q","q":{"bench":{}}}"#)
      _ = await waitFor("add-query-ok", on: &inbox)
      sessions.append(s)
      inboxes.append(inbox)
    }
    let rss = residentMegabytes()
    var latencies: [Double] = []
    for i in 0..<(writes + 50) {
      txCounter += 1
      let start = ContinuousClock.now
      writer.send(Fixture.transact(txCounter))
      var observed = start
      for index in inboxes.indices {
        let at = await waitFor("refresh-ok", on: &inboxes[index])
        if index == inboxes.count - 1 { observed = at }
      }
      _ = await waitFor("transact-ok", on: &writerInbox)
      if i >= 50 { latencies.append(micros(observed - start)) }
    }
    latencies.sort()
    rows.append(
      String(
        format: "| %4d | %5d | %8.0f | %8.0f | %8.0f | %6.0f |", subscribers, latencies.count, percentile(latencies, 0.5),
        percentile(latencies, 0.99), percentile(latencies, 1.0), rss))
    for s in sessions { await s.close() }
  }

  // Single writer, no subscribers: each transaction waits for its transact-ok.
  let txCount = max(writes * 2, 2000)
  let sequentialStart = ContinuousClock.now
  for _ in 0..<txCount {
    txCounter += 1
    writer.send(Fixture.transact(txCounter))
    _ = await waitFor("transact-ok", on: &writerInbox)
  }
  let sequentialRate = Double(txCount) / (micros(ContinuousClock.now - sequentialStart) / 1e6)

  // Single writer, pipelined: send them all, wait for the last transact-ok.
  let pipelinedStart = ContinuousClock.now
  for _ in 0..<txCount {
    txCounter += 1
    writer.send(Fixture.transact(txCounter))
  }
  for _ in 0..<txCount { _ = await waitFor("transact-ok", on: &writerInbox) }
  let pipelinedRate = Double(txCount) / (micros(ContinuousClock.now - pipelinedStart) / 1e6)
  await writer.close()
  await server.stop()

  print("instant-local: write on A → refresh-ok on the last subscribed session (µs), \(writes) writes each, \(inMemory ? "in-memory storage" : "file storage (WAL)"), \(extraEntities) extra entities, rules: \(rulesMode)")
  print("| subscribed sessions | writes | p50 µs | p99 µs | max µs | RSS MB (server and sessions, one process) |")
  print("| ---: | ---: | ---: | ---: | ---: | ---: |")
  for row in rows { print(row) }
  print("")
  print(String(format: "single writer, sequential (await each transact-ok): %.0f tx/s over %d transactions", sequentialRate, txCount))
  print(String(format: "single writer, pipelined (send all, then await): %.0f tx/s over %d transactions", pipelinedRate, txCount))
}

/// This process's resident memory in MB (Linux `/proc/self/status`; 0 elsewhere).
func residentMegabytes() -> Double {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
  else { return 0 }
  return kilobytes / 1024
}

if let files = ProcessInfo.processInfo.environment["INSTANT_LOCAL_BENCH_FILES"] {
  try await runFilesBench(megabytes: Int(files).map { max($0, 1) } ?? 64)
} else if let backup = ProcessInfo.processInfo.environment["INSTANT_LOCAL_BENCH_BACKUP"] {
  try await runBackupBench(entities: Int(backup).map { max($0, 1) } ?? 100_000)
} else {
  try await runBenchmark()
}
