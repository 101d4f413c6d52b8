// Presence through a real instant-local on loopback (release build), issue 8's cost target:
//
//   cd Benchmarks && swift run -c release instant-presence-bench [peers] [updates-per-second] [seconds]
//
// `peers` clients (50) join one room; each sets its presence `rate` times a second (20) for
// `seconds` (10). Every presence carries the time it was set; whenever a client's view of a peer
// changes, the age of that peer's presence in the view is one sample of staleness. Target: p99
// ≤ 100 ms. Clients, server and measurement share one process (and here, two cores).
import Foundation
import InstantCore
import InstantDB
import InstantLocal
import Logging

struct Beat: Codable, Sendable, Equatable {
  var n: Int
  /// Uptime in nanoseconds when it was set (one process, one clock).
  var at: UInt64
}

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let peerCount = arguments.first ?? 50
let rate = arguments.dropFirst().first ?? 20
let seconds = arguments.dropFirst(2).first ?? 10
let appID = "6a0e5a43-2d2c-4f4e-9a53-1c8f3d6f0b11"

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Staleness samples in nanoseconds, from every observer.
actor Samples {
  var values: [UInt64] = []
  var missed = 0
  func add(_ batch: [UInt64]) { values += batch }
}

var logger = Logger(label: "bench")
logger.logLevel = .critical
let server = try InstantLocalServer(configuration: .init(port: 0, storage: .memory), logger: logger)
let port = try await server.start()

let clients = (0..<peerCount).map { _ in
  InstantClient(
    appId: appID, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
    websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: .memory)
}
func join(_ clients: [InstantClient]) async throws -> [InstantRoom<Beat>] {
  var rooms: [InstantRoom<Beat>] = []
  for client in clients {
    rooms.append(try await client.joinRoom(type: "bench", id: "room", initialPresence: Beat(n: 0, at: now())))
  }
  return rooms
}
let rooms = try await join(clients)

let samples = Samples()
let measuring = ManagedAtomicFlag()
let observers = rooms.map { room in
  Task {
    var lastSeen: [String: Int] = [:]
    var batch: [UInt64] = []
    for await view in room.presenceUpdates() {
      let t = now()
      for peer in view.peers where lastSeen[peer.id] != peer.data.n {
        lastSeen[peer.id] = peer.data.n
        if measuring.isSet, peer.data.n > 0 { batch.append(t &- peer.data.at) }
      }
      if batch.count >= 512 {
        await samples.add(batch)
        batch = []
      }
      if Task.isCancelled { break }
    }
    await samples.add(batch)
  }
}

// Everyone sees everyone before the clock starts.
func everyoneSeesEveryone() async -> Bool {
  for room in rooms {
    if await room.presence.peers.count < peerCount - 1 { return false }
  }
  return true
}
while await !everyoneSeesEveryone() { try await Task.sleep(for: .milliseconds(50)) }
print("\(peerCount) peers in the room; \(rate) updates/s each for \(seconds) s")

measuring.set()
let interval = Duration.nanoseconds(1_000_000_000 / rate)
let writers = rooms.enumerated().map { index, room in
  Task {
    // Spread the peers over the interval so updates do not arrive in lockstep.
    try await Task.sleep(for: interval * index / peerCount)
    let clock = ContinuousClock()
    var next = clock.now
    for n in 1...(rate * seconds) {
      try await room.setPresence(Beat(n: n, at: now()))
      next += interval
      try await clock.sleep(until: next)
    }
  }
}
for writer in writers { try await writer.value }
try await Task.sleep(for: .milliseconds(500))
observers.forEach { $0.cancel() }
for client in clients { await client.shutdown() }
for observer in observers { await observer.value }
await server.stop()

let sorted = await samples.values.sorted()
func ms(_ p: Double) -> String {
  guard !sorted.isEmpty else { return "-" }
  return String(format: "%.1f ms", Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1e6)
}
let expected = peerCount * (peerCount - 1) * rate * seconds
print("view changes seen: \(sorted.count) of \(expected) updates (the rest coalesced into newer ones)")
print("staleness p50 \(ms(0.5))  p90 \(ms(0.9))  p99 \(ms(0.99))  max \(ms(1.0))  (target p99 ≤ 100 ms)")

/// A flag set once, read from many tasks.
final class ManagedAtomicFlag: @unchecked Sendable {
  // Safety: `value` is only touched while `lock` is held.
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
