import Foundation
import SharingInstant

// `withLock` one-row edit in an N-row `.instantSync` collection: the time until the value is
// updated and the write computed (`withLock` returns), and until the write is queued (`save()`
// resumes). Offline client with in-memory storage, so the figure is the keys' own cost plus the
// client's enqueue, not the disk's. Usage: sharing-instant-keys-bench [rows] [edits]

struct Row: EntityIdentifiable, Equatable {
  static let namespace = "rows"
  var id: String = UUID().uuidString.lowercased()
  var title: String
  var done = false
  var rank: Double
}

func percentile(_ sorted: [Duration], _ p: Double) -> String {
  let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
  return String(format: "%.3f ms", Double(value.components.attoseconds) / 1e15 + Double(value.components.seconds) * 1000)
}

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let rows = arguments.first ?? 1000
let edits = arguments.dropFirst().first ?? 1000
let client = InstantClient.offline(appId: "keys-bench")
let collection = Shared(.instantSync(EntityKey<Row>(namespace: "rows"), client: client))
collection.withLock { $0.append(contentsOf: (0..<rows).map { Row(title: "row \($0)", rank: Double($0)) }) }
try await collection.save()

let clock = ContinuousClock()
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
print("withLock one-row edit, \(rows) rows, \(edits) edits")
print("  value updated + write computed: p50 \(percentile(updated, 0.5))  p90 \(percentile(updated, 0.9))")
print("  write queued (save resumes):    p50 \(percentile(queued, 0.5))  p90 \(percentile(queued, 0.9))")
await client.shutdown()
