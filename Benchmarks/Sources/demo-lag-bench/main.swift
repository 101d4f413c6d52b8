// The lag of the terminal demos under steady use: two `todos` processes (the first hosts the
// server, the second joins), `toggle 1` typed into the first N times, the time from each
// command to the second terminal's frame showing it. Build the demo first, then run from
// Benchmarks/:
//
//   swift build -c release --product todos                 (at the repository root)
//   swift run -c release demo-lag-bench ../.build/release 500
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let binaries = URL(fileURLWithPath: arguments.first ?? "../.build/release")
let changes = arguments.dropFirst().first.flatMap(Int.init) ?? 500
signal(SIGPIPE, SIG_IGN)

/// A `todos` process with pipes for stdin and stdout (plain-text frames).
final class Demo: @unchecked Sendable {
  let process = Process()
  let input = Pipe()
  let output = Pipe()
  let lock = NSLock()
  var text = ""

  init(_ arguments: [String]) throws {
    process.executableURL = binaries.appendingPathComponent("todos")
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let chunk = String(decoding: handle.availableData, as: UTF8.self)
      guard let self else { return }
      lock.withLock {
        text += chunk
        // Keep only the newest complete frame and what follows it.
        if let end = text.range(of: "\n-- end of frame --\n", options: .backwards) {
          let before = text[..<end.lowerBound]
          let start = before.range(of: "-- end of frame --\n", options: .backwards)?.upperBound ?? before.startIndex
          text = String(text[start...])
        }
      }
    }
    try process.run()
  }

  var newestFrame: String {
    lock.withLock { text.components(separatedBy: "\n-- end of frame --\n").dropLast().last ?? "" }
  }

  func type(_ keys: String) { input.fileHandleForWriting.write(Data(keys.utf8)) }

  /// Waits until the newest frame satisfies `holds`; the time it took.
  func wait(_ what: String, _ holds: (String) -> Bool) -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    while !holds(newestFrame) {
      guard clock.now - start < .seconds(60) else {
        FileHandle.standardError.write(Data("demo-lag-bench: \(what) not seen in 60 s; newest frame:\n\(newestFrame)\n".utf8))
        exit(1)
      }
      usleep(200)
    }
    return clock.now - start
  }

  var residentMB: Int {
    guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/statm", encoding: .utf8),
      let pages = Int(status.split(separator: " ")[1])
    else { return 0 }
    return (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
  }

  func stop() { if process.isRunning { process.terminate() } }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-lag-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
let port = 20_000 + Int.random(in: 0..<20_000)
let options = ["--port", "\(port)", "--data", directory.appendingPathComponent("demos.sqlite").path]
let ann = try Demo(options + ["--name", "ann"])
_ = ann.wait("ann connected") { $0.contains("● authenticated") }
let bob = try Demo(options + ["--name", "bob"])
_ = bob.wait("bob connected") { $0.contains("● authenticated") }
ann.type("add t\n")
_ = bob.wait("the todo") { $0.contains("1. [ ] t") }

var lags: [Duration] = []
for change in 1...changes {
  ann.type("toggle 1\n")
  let mark = change % 2 == 1 ? "1. [x] t" : "1. [ ] t"
  lags.append(bob.wait("change \(change)") { $0.contains(mark) })
}
func ms(_ d: Duration) -> String { String(format: "%.1f ms", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000) }
func summary(_ part: ArraySlice<Duration>) -> String {
  let sorted = part.sorted()
  return "median \(ms(sorted[sorted.count / 2])), p90 \(ms(sorted[sorted.count * 9 / 10])), max \(ms(sorted.last!))"
}
print("demo-lag-bench: \(changes) toggles typed into one todos, seen on the other's screen")
print("  change 1: \(ms(lags[0])), change \(changes): \(ms(lags[changes - 1]))")
print("  changes 1-100: \(summary(lags.prefix(100)))")
print("  the last 100:  \(summary(lags.suffix(100)))")
print("  resident memory after: ann (hosts the server) \(ann.residentMB) MB, bob \(bob.residentMB) MB")
ann.type("q\n")
bob.type("q\n")
ann.process.waitUntilExit()
bob.stop()
ann.stop()
