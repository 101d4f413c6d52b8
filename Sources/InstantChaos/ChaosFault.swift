/// The faults a chaos run injects.
package enum ChaosFault: String, Sendable, CaseIterable, Comparable {
  /// Every connection of one client cut, both sides.
  case drop
  /// One client's connections stop moving bytes for 0.2–1.5 s.
  case stall
  /// One direction of one client's connections shut (end-of-file on one side).
  case halfClose = "half-close"
  /// The server `kill -9`ed and restarted on the same data file.
  case serverKill = "server-kill"
  /// One client `kill -9`ed (between two writes it reported) and restarted from its file.
  case clientKill = "client-kill"
  /// One client offline (`setNetworkAvailable(false)`) for its next 5–25 writes.
  case offline

  package static func < (a: Self, b: Self) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }

  /// How often each kind is picked for a random fault.
  static let weights: [(ChaosFault, Int)] = [
    (.drop, 3), (.stall, 2), (.halfClose, 2), (.serverKill, 1), (.clientKill, 1), (.offline, 2),
  ]

  static func random(using rng: inout SplitMix) -> ChaosFault {
    var roll = Int.random(in: 0..<weights.reduce(0) { $0 + $1.1 }, using: &rng)
    for (fault, weight) in weights {
      if roll < weight { return fault }
      roll -= weight
    }
    return .drop
  }

  /// For each client, the faults injected before each of its writes: every kind at least once
  /// (when there are enough writes), then one in `every` writes on average.
  static func schedule(writes: [Int], every: Int, using rng: inout SplitMix) -> [[Int: [ChaosFault]]] {
    var schedule = writes.map { _ in [Int: [ChaosFault]]() }
    let clients = writes.indices.filter { writes[$0] >= 10 }
    guard !clients.isEmpty else { return schedule }
    for fault in allCases {
      let client = clients.randomElement(using: &rng)!
      let at = Int.random(in: writes[client] / 10...writes[client] * 7 / 10, using: &rng)
      schedule[client][at, default: []].append(fault)
    }
    for client in writes.indices {
      for at in 0..<writes[client] where every > 0 && Int.random(in: 0..<every, using: &rng) == 0 {
        schedule[client][at, default: []].append(random(using: &rng))
      }
    }
    return schedule
  }
}
