// Client latencies through a real instant-local on loopback (release build):
//
//   cd Benchmarks && swift run -c release instant-client-bench [iterations]
//
// 1. local write → own subscriber notified, query over 1k rows;
// 2. A writes → B's subscriber notified, through instant-local;
// 3. enqueue (transact returns, write durable in a SQLite file) with 0 … 10k writes pending;
// 4. cold start: a new client on a file with a cached 1k-row result → first result.
import Foundation
import InstantCore
import InstantDB
import InstantLocal
import Logging
import Synchronization

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
let appID = "6a0e5a43-2d2c-4f4e-9a53-1c8f3d6f0b11"

func client(port: Int, storage: InstantStorage = .memory) -> InstantClient {
  InstantClient(
    appId: appID, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
    websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: storage)
}

/// The latest result of a subscription, and a way to wait for a condition on it.
final class Latest: Sendable {
  let value = Mutex<QueryResult?>(nil)
  let task: Task<Void, Never>

  init(_ subscription: QuerySubscription) {
    let value = self.value
    task = Task { for await r in subscription { value.withLock { $0 = r } } }
  }

  func wait(_ predicate: (QueryResult) -> Bool) async {
    while true {
      if let r = value.withLock({ $0 }), predicate(r) { return }
      await Task.yield()
    }
  }
}

func report(_ name: String, _ samples: [Duration]) {
  let sorted = samples.sorted()
  func pct(_ p: Double) -> String {
    let d = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    let us = Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    return us >= 1000 ? String(format: "%.2f ms", us / 1000) : String(format: "%.0f µs", us)
  }
  print("\(name): n=\(sorted.count) p50 \(pct(0.5))  p90 \(pct(0.9))  p99 \(pct(0.99))  max \(pct(1.0))")
}

func title(_ i: Int) -> JSON { .string("item \(i)") }

var logger = Logger(label: "bench")
logger.logLevel = .critical
let server = try InstantLocalServer(configuration: .init(port: 0, storage: .memory), logger: logger)
let port = try await server.start()

let a = client(port: port)
let b = client(port: port)
let query: JSON = ["items": [:]]
let watchA = Latest(a.subscribe(query))
let watchB = Latest(b.subscribe(query))
await watchA.wait { !$0.isFromCache }
var ids: [String] = []
for chunk in 0..<10 {
  var ops: [InstaMLOp] = []
  for i in 0..<100 {
    let id = InstantID.make()
    ids.append(id)
    ops.append(.update("items", .id(id), ["title": title(chunk * 100 + i), "n": .number(0)]))
  }
  try await a.transact(ops).synced()
}
await watchA.wait { $0.data["items"]?.arrayValue?.count == 1000 && !$0.hasPendingWrites }
await watchB.wait { $0.data["items"]?.arrayValue?.count == 1000 }

// 1. Own write → own subscriber.
var local: [Duration] = []
for i in 1...iterations {
  let id = ids[i % ids.count]
  let clock = ContinuousClock.now
  try await a.transact(.update("items", .id(id), ["n": .number(Double(i))]))
  await watchA.wait { r in r.data["items"]?.arrayValue?.contains { $0["id"] == .string(id) && $0["n"] == .number(Double(i)) } == true }
  local.append(ContinuousClock.now - clock)
}
report("local write → own subscriber (1k rows)", local)

// 2. A → B through instant-local.
var remote: [Duration] = []
let base = iterations + 1
for i in 1...iterations {
  let id = ids[i % ids.count]
  let value = JSON.number(Double(base + i))
  let clock = ContinuousClock.now
  try await a.transact(.update("items", .id(id), ["n": value]))
  await watchB.wait { r in r.data["items"]?.arrayValue?.contains { $0["id"] == .string(id) && $0["n"] == value } == true }
  remote.append(ContinuousClock.now - clock)
}
report("A write → B subscriber via instant-local (1k rows)", remote)

// 4 (setup). Cache a 1k-row result in a file.
let dir = FileManager.default.temporaryDirectory.appendingPathComponent("instant-client-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let cachedFile = InstantStorage.sqlite(dir.appendingPathComponent("cached.sqlite"))
do {
  let c = client(port: port, storage: cachedFile)
  let w = Latest(c.subscribe(query))
  await w.wait { !$0.isFromCache && $0.data["items"]?.arrayValue?.count == 1000 }
  w.task.cancel()
  await c.shutdown()
}
await a.shutdown()
await b.shutdown()
await server.stop()

// 3. Enqueue with a growing backlog (offline: nothing is sent).
let queued = client(port: 1, storage: .sqlite(dir.appendingPathComponent("queue.sqlite")))
var buckets: [Int: [Duration]] = [:]
for i in 0..<10_000 {
  let clock = ContinuousClock.now
  try await queued.transact(.update("items", .id(InstantID.make()), ["n": .number(Double(i))]))
  buckets[i / 2_000, default: []].append(ContinuousClock.now - clock)
}
for k in buckets.keys.sorted() {
  report("enqueue with \(k * 2_000)–\(k * 2_000 + 1_999) pending", buckets[k]!)
}
await queued.shutdown()

// 4. Cold start from the cache (no server running).
var cold: [Duration] = []
for _ in 0..<20 {
  let clock = ContinuousClock.now
  let c = client(port: 1, storage: cachedFile)
  let w = Latest(c.subscribe(query))
  await w.wait { $0.data["items"]?.arrayValue?.count == 1000 }
  cold.append(ContinuousClock.now - clock)
  w.task.cancel()
  await c.shutdown()
}
report("cold start → first cached result (1k rows)", cold)
