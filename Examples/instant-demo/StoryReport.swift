import Foundation

/// Prints the story's steps as they pass or fail, and the closing summary.
struct StoryReport {
  private(set) var latencies: [Duration] = []
  private(set) var steps = 0
  let started = ContinuousClock.now

  /// A step that happened; `latency` is A's write → B's value, when the step has one.
  mutating func passed(_ title: String, latency: Duration? = nil, detail: String? = nil) {
    steps += 1
    var line = "✔ \(String(format: "%2d", steps)). \(title)"
    if let latency {
      latencies.append(latency)
      line += "  [\(Self.format(latency))]"
    }
    print(line)
    if let detail { print("      \(detail)") }
  }

  /// The step that did not happen; the story stops here.
  mutating func failed(_ title: String, error: any Error) {
    steps += 1
    print("✘ \(String(format: "%2d", steps)). \(title)")
    print("      \(error)")
    print("instant-demo: FAILED at step \(steps) (\(title)) after \(Self.format(ContinuousClock.now - started))")
  }

  /// The one-line summary of a story where every step passed.
  func summary() -> String {
    let sorted = latencies.sorted()
    let median = sorted.isEmpty ? "-" : Self.format(sorted[sorted.count / 2])
    let worst = sorted.last.map(Self.format) ?? "-"
    return "instant-demo: all \(steps) steps passed in \(Self.format(ContinuousClock.now - started)); "
      + "write → other client's value: median \(median), slowest \(worst) over \(sorted.count) syncs"
  }

  static func format(_ duration: Duration) -> String {
    let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    return ms < 1000 ? String(format: "%.1f ms", ms) : String(format: "%.2f s", ms / 1000)
  }
}
