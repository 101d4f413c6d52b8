// Client latencies through a real instant-local on loopback (release build):
//
//   cd Benchmarks && swift run -c release instant-client-bench [iterations]
//
// 1. local write → own subscriber notified, store of 1k rows (a filtered query and all rows);
// 2. A writes → B's subscriber notified, through instant-local;
// 3. enqueue (transact returns, write durable in a SQLite file) with 0 … 10k writes pending;
// 4. cold start: a new client on a file with a cached 1k-row result → first result.
import Foundation
import InstantCore
import InstantDB
import InstantLocal
import Logging

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
let appID = "6a0e5a43-2d2c-4f4e-9a53-1c8f3d6f0b11"

func client(port: Int, storage: InstantStorage = .memory) -> InstantClient {
  InstantClient(
    appId: appID, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
    websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: storage)
}

/// Follows a subscription: `wait` reads answers until one matches (no polling).
// Safety: each follower is read by one task at a time.
final class Follower: @unchecked Sendable {
  var iterator: AsyncStream<QueryResult>.Iterator

  init(_ subscription: QuerySubscription) { iterator = subscription.makeAsyncIterator() }

  func wait(_ predicate: @Sendable (QueryResult) -> Bool) async {
    while let r = await iterator.next() {
      if predicate(r) { return }
    }
    fatalError("the subscription ended")
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
let all: JSON = ["items": [:]]
let bucket: JSON = ["items": ["$": ["where": ["bucket": 7]]]]
func count(_ r: QueryResult) -> Int { r.data["items"]?.arrayValue?.count ?? 0 }
func has(_ r: QueryResult, _ id: String, _ n: Double) -> Bool {
  r.data["items"]?.arrayValue?.contains { $0["id"] == .string(id) && $0["n"] == .number(n) } == true
}

// Setup: 1k items written by A (no live query yet, so the load costs no refreshes).
var ids: [String] = []
for chunk in 0..<10 {
  var ops: [InstaMLOp] = []
  for i in 0..<100 {
    let id = InstantID.make()
    ids.append(id)
    ops.append(.update("items", .id(id), ["title": title(chunk * 100 + i), "bucket": .number(Double(i % 50)), "n": .number(0)]))
  }
  try await a.transact(ops).synced()
}
let bucketIDs = ids.enumerated().filter { $0.offset % 50 == 7 }.map(\.element)
var written = 0.0

/// A updates `id`; returns how long until `follower` sees the new value.
@MainActor func timedWrite(_ writer: InstantClient, _ id: String, _ follower: Follower) async throws -> Duration {
  written += 1
  let value = written
  let clock = ContinuousClock.now
  try await writer.transact(.update("items", .id(id), ["n": .number(value)]))
  await follower.wait { has($0, id, value) }
  return ContinuousClock.now - clock
}

// 2a. A → B through instant-local, B's only query is a where over the 1k rows (20 returned).
let watchBFiltered = Follower(b.subscribe(bucket))
await watchBFiltered.wait { count($0) == 20 && !$0.isFromCache }
var remoteSmall: [Duration] = []
for i in 1...iterations { remoteSmall.append(try await timedWrite(a, bucketIDs[i % bucketIDs.count], watchBFiltered)) }
report("A write → B subscriber via instant-local (where over 1k rows, 20 returned)", remoteSmall)

// 2b. The same with a query returning all 1k rows on B (each refresh carries 1k rows).
let watchB = Follower(b.subscribe(all))
await watchB.wait { count($0) == 1000 && !$0.isFromCache }
var remote: [Duration] = []
for i in 1...iterations { remote.append(try await timedWrite(a, ids[i % ids.count], watchB)) }
report("A write → B subscriber via instant-local (all 1k rows returned)", remote)

// 1. Own write → own subscriber, offline (no server traffic in the way), store of 1k rows.
let watchAFiltered = Follower(a.subscribe(bucket))
await watchAFiltered.wait { count($0) == 20 && !$0.isFromCache }
await a.setNetworkAvailable(false)
var localFiltered: [Duration] = []
for i in 1...iterations { localFiltered.append(try await timedWrite(a, bucketIDs[i % bucketIDs.count], watchAFiltered)) }
report("local write → own subscriber, where over 1k rows (20 returned), the only query", localFiltered)
await a.setNetworkAvailable(true)
let watchA = Follower(a.subscribe(all))
await watchA.wait { count($0) == 1000 && !$0.isFromCache }
// The offline writes of the phase before land first, so this phase starts with none pending.
while await a.pendingWrites.contains(where: { $0.state != .synced }) { try await Task.sleep(for: .milliseconds(10)) }
await a.setNetworkAvailable(false)
var localAll: [Duration] = []
for i in 1...iterations { localAll.append(try await timedWrite(a, bucketIDs[i % bucketIDs.count], watchA)) }
report("local write → own subscriber, all 1k rows returned (with the where query live too)", localAll)

// 5. Back online with those writes pending: until the server has acknowledged every one.
let backlog = await a.pendingWrites.filter { $0.state != .synced }.count
let flushStart = ContinuousClock.now
await a.setNetworkAvailable(true)
while await a.pendingWrites.contains(where: { $0.state != .synced }) { try await Task.sleep(for: .milliseconds(5)) }
print("reconnect → \(backlog) offline writes acknowledged (two live queries, 1k rows): \(ContinuousClock.now - flushStart)")

// 4 (setup). Cache a 1k-row result in a file.
let dir = FileManager.default.temporaryDirectory.appendingPathComponent("instant-client-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let cachedFile = InstantStorage.sqlite(dir.appendingPathComponent("cached.sqlite"))
do {
  let c = client(port: port, storage: cachedFile)
  let w = Follower(c.subscribe(all))
  await w.wait { !$0.isFromCache && count($0) == 1000 }
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
  let w = Follower(c.subscribe(all))
  await w.wait { count($0) == 1000 }
  cold.append(ContinuousClock.now - clock)
  await c.shutdown()
}
report("cold start → first cached result (1k rows)", cold)
