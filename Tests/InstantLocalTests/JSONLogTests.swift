import Foundation
import InstantCore
@testable import InstantLocal
import Logging
import Testing
import TestSupport

/// `--log-format json`: every line one JSON object a collector can parse, fields as keys.
@Suite("Structured logs")
struct JSONLogTests {
  /// The lines a handler wrote, each parsed as a JSON object.
  static func objects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      return try #require(object as? [String: Any], "a line is an object: \(line)")
    }
  }

  @Test("Hostile messages and metadata (quotes, newlines, control characters, nested values) give one parsable line each")
  func hostileContent() throws {
    let written = Locked("")
    var handler = JSONLogHandler(label: "test", sink: .init { line in written.withLock { $0 += line } })
    handler.logLevel = .trace
    handler[metadataKey: "app_id"] = "app-1"
    handler[metadataKey: "shadowed"] = "the logger's"
    let logger = Logger(label: "test") { _ in handler }
    let hostile = "a \"quoted\"\nsecond line\r\t\u{0} \u{1F} \\ end 🙂"
    logger.warning("\(hostile)", metadata: [
      "error": "\(hostile)", "shadowed": "the line's", "nested": ["list": ["1", "two"], "inner": ["k": "v"]],
      "message": "a field named like the message", "count": "\(42)",
    ])
    logger.info("second")
    let text = written.withLock { $0 }
    #expect(text.hasSuffix("\n"))
    #expect(text.filter { $0 == "\n" }.count == 2, "a newline inside a value is escaped, never a line break: \(text)")
    let lines = try Self.objects(text)
    try #require(lines.count == 2)
    let first = lines[0]
    #expect(first["message"] as? String == hostile)
    #expect(first["error"] as? String == hostile)
    #expect(first["level"] as? String == "warning")
    #expect(first["label"] as? String == "test")
    #expect(first["app_id"] as? String == "app-1")
    #expect(first["shadowed"] as? String == "the line's", "a line's field wins over the logger's")
    #expect(first["meta.message"] as? String == "a field named like the message", "never replaces the message")
    #expect(first["count"] as? String == "42")
    let nested = try #require(first["nested"] as? [String: Any])
    #expect(nested["list"] as? [String] == ["1", "two"])
    #expect((nested["inner"] as? [String: String]) == ["k": "v"])
    let time = try #require(first["time"] as? String)
    #expect(try Date(time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) <= Date())
    #expect(time.hasSuffix("Z"), "UTC: \(time)")
    #expect(lines[1]["message"] as? String == "second")
    #expect(lines[1]["app_id"] as? String == "app-1")
  }

  @Test("Lines from many tasks at once never interleave: 8 × 500 lines, each whole")
  func concurrentLines() async throws {
    // The sink writes each line in pieces, as a write(2) of a long line may: only the handler's
    // lock keeps another task's line out of the middle.
    let written = Locked("")
    let handler = JSONLogHandler(
      label: "test",
      sink: .init { line in
        for piece in line.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
          written.withLock { $0 += (piece.offset == 0 ? "" : ",") + piece.element }
        }
      })
    let logger = Logger(label: "test") { _ in handler }
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for n in 0..<500 { logger.info("line", metadata: ["task": "\(task)", "n": "\(n)", "pad": "x,y,z"]) }
        }
      }
    }
    let lines = try Self.objects(written.withLock { $0 })
    #expect(lines.count == 4000)
    #expect(Set(lines.map { "\($0["task"] ?? "")/\($0["n"] ?? "")" }).count == 4000)
  }

  @Test("instant-local serve --log-format json: every line on standard error parses, with its app and peer as fields")
  func serveWritesJSON() async throws {
    guard ServerProcess.binary != nil else {
      Issue.record("the instant-local executable is not built next to the tests")
      return
    }
    let server = try await ServerProcess(arguments: [
      "--port", "0", "--memory", "--log-format", "json", "--log-level", "debug", "--max-connections-per-ip", "1",
    ])
    defer { server.terminate() }
    let (session, reply) = try await TestSession.connected(port: server.port)
    #expect(reply["op"] == "init-ok")
    // A second connection from this address is refused, and says so in the log. The test waits
    // for that line, not for the refused socket to close: under the whole suite the close has
    // not reached the test's client for the length of the run. Once the line is there the
    // server has closed the socket without an answer, so nothing it received can be init-ok.
    let second = TestSession(port: server.port)
    second.send(["op": "init", "app-id": .string(TestSession.appID), "client-event-id": "second"])
    _ = try await server.stderr.wait(for: "refused a connection")
    let refused = await second.collect(for: .zero).first { $0["client-event-id"] == "second" }
    #expect(refused?["op"] != "init-ok", "the socket is closed before init")
    _ = try await HTTPTestClient(port: server.port).sendMagicCode(appID: TestSession.appID, email: "json@example.com")
    _ = try await server.stderr.wait(for: "magic code for json@example.com")
    await session.close()

    let text = server.stderr.text
    // Only whole lines: the last may still be arriving.
    let whole = String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
    let lines = try Self.objects(whole)
    #expect(lines.count >= 3)
    for line in lines {
      for field in ["time", "level", "label", "message"] {
        #expect(line[field] is String, "every line has \(field): \(line)")
      }
    }
    let code = try #require(lines.first { ($0["message"] as? String)?.hasPrefix("magic code for json@example.com") == true })
    #expect(code["app_id"] as? String == TestSession.appID)
    #expect(code["level"] as? String == "notice")
    let refusal = try #require(lines.first { $0["message"] as? String == "refused a connection" })
    #expect(refusal["peer"] as? String == "127.0.0.1")
    #expect((refusal["reason"] as? String)?.contains("too many connections from your address") == true)
  }

  @Test("--log-format takes text or json; anything else is refused by name")
  func logFormatOption() async throws {
    guard let binary = ServerProcess.binary else {
      Issue.record("the instant-local executable is not built next to the tests")
      return
    }
    let (status, output) = try await runToEnd(binary, ["--port", "0", "--memory", "--log-format", "xml"])
    #expect(status != 0)
    #expect(output.contains("--log-format must be text or json, got xml"), "\(output)")
  }
}
