import DemoSupport
import Foundation
import InstantLocalTesting
import SharingInstant
import Testing
import TestSupport
import InstantLocal

/// `swift run instant-demo`, the README's first command, run as a newcomer runs it.
@Suite("instant-demo", .timeLimit(.minutes(10)))
struct InstantDemoTests {
  @Test("With no arguments it tells the whole story on an embedded server and exits 0")
  func wholeStory() async throws {
    let run = try await runDemo([])
    #expect(run.status == 0, "\(run.output)")
    for step in [
      "A adds three todos → B sees them", "B deletes “Walk the dog” → A sees it gone",
      "on B it heads the open-todos key", "B shows “Ann is typing…”", "B receives it",
      "A comes back online → its queued edit lands on B", "the server refuses the edit; A rolls it back and says why",
      "A tries a longer one → refused, rolled back",
    ] {
      #expect(run.output.contains("✔") && run.output.contains(step), "missing step: \(step)")
    }
    #expect(!run.output.contains("✘"))
    #expect(run.output.contains("Updating entities that don't exist"), "the refused write's message is shown")
    #expect(run.output.contains("Permission denied"), "the rules' refusal is shown")
    let summary = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("instant-demo: all ") })
    #expect(summary.contains("steps passed"))
  }

  @Test("--server tells the story against a running instant-local, again and again: it leaves no todos behind")
  func againstARunningServer() async throws {
    try await withInstantLocal { server in
      let url = "http://127.0.0.1:\(try #require(await server.port))"
      for _ in 0..<2 {
        let run = try await runDemo(["--server", url])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("on server \(url)"))
        #expect(run.output.contains("instant-demo: all 15 steps passed"))
      }
      let reader = try DemoServer.remote(URL(string: url)!).client()
      // queryOnce throws until the client is connected.
      let left = try await eventually("the todos read from the server", every: .milliseconds(50)) {
        try? await reader.queryOnce(["todos": [:]], timeout: .seconds(5)).data["todos"]
      }
      #expect(left == [], "the story deletes the todos it made")
      await reader.shutdown()
    }
  }

  @Test("A server that is not there fails the first step by name, with exit code 1")
  func noServer() async throws {
    let run = try await runDemo(["--server", "http://127.0.0.1:9", "--timeout", "1"])
    #expect(run.status == 1)
    #expect(run.output.contains("✘  1. A and B connect"))
    #expect(run.output.contains("instant-demo: FAILED at step 1"))
  }

  @Test("A --server that is not an http(s) or ws(s) URL is refused with a clear message")
  func badServer() async throws {
    let run = try await runDemo(["--server", "ftp://example.com"])
    #expect(run.status != 0)
    #expect(run.output.contains("--server wants an http(s):// or ws(s):// URL"))
  }
}

/// Runs the built `instant-demo` (next to the test bundle) to completion.
/// Runs instant-demo to its end. Each of its steps waits the suite's ``backstop`` unless the
/// test says otherwise (its own default, 10 s, is for a person at a terminal, not for a test
/// sharing two cores with the whole suite).
func runDemo(_ arguments: [String]) async throws -> (status: Int32, output: String) {
  let arguments = arguments.contains("--timeout") ? arguments : arguments + ["--timeout", "\(Int(backstop.seconds))"]
  return try await runToEnd(DemoProcess.buildDirectory.appendingPathComponent("instant-demo"), arguments)
}
