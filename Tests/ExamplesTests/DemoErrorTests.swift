import DemoSupport
import Foundation
import InstantLocal
import InstantLocalTesting
import SharingInstant
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the demos say when something is wrong: the cause, and what to do.
@Suite("Demo errors", .serialized, .timeLimit(.minutes(10)))
struct DemoErrorTests {
  @Test("instant-demo --server to a closed port says the connection was refused, at once")
  func instantDemoClosedPort() async throws {
    let run = try await runDemo(["--server", "http://127.0.0.1:\(freePort())", "--timeout", "30"])
    #expect(run.status == 1)
    #expect(run.output.lowercased().contains("connection refused"), "\(run.output)")
    #expect(run.output.contains("Is the server running?"))
    #expect(!run.output.contains("did not happen within"), "\(run.output)")
  }

  /// A server that knows only the apps made on it, so an unknown app id is refused.
  static var strictApps: InstantLocalConfiguration {
    var configuration = InstantLocalConfiguration.testing()
    configuration.strictApps = true
    return configuration
  }

  @Test("instant-demo --server with an app id the server refuses shows the server's error")
  func instantDemoBadAppID() async throws {
    try await withInstantLocal(configuration: Self.strictApps) { server in
      let url = "http://127.0.0.1:\(try #require(await server.port))"
      let run = try await runDemo(["--server", url, "--app-id", UUID().uuidString, "--timeout", "30"])
      #expect(run.status == 1)
      #expect(run.output.contains("the server refused the clients: "), "\(run.output)")
      #expect(!run.output.contains("did not happen within"), "\(run.output)")
    }
  }

  @Test("An --app-id that is not a UUID is refused before anything starts, saying what an app id is")
  func appIDNotAUUID() async throws {
    let run = try await runDemo(["--app-id", "not-an-app"])
    #expect(run.status != 0)
    #expect(run.output.contains("--app-id must be an app's id, a UUID like"), "\(run.output)")
    let todos = try DemoProcess("todos", ["--app-id", "not-an-app"], label: "todos, not a UUID")
    defer { todos.stop() }
    #expect(try await todos.waitForExit() == 1)
    #expect(todos.text.contains("--app-id must be an app's id, a UUID like"), "\(todos.text)")
  }

  @Test("A demo whose connection errored says why on its status line")
  func erroredShowsTheReason() async throws {
    try await withInstantLocal(configuration: Self.strictApps) { server in
      let url = "http://127.0.0.1:\(try #require(await server.port))"
      let demo = try DemoProcess("todos", ["--server", url, "--app-id", UUID().uuidString], label: "todos, unknown app")
      defer { demo.stop() }
      let frame = try await demo.waitForFrame("the reason") { $0.contains("● errored") && $0.contains("the server refused this client: ") }
      #expect(frame.contains("the server refused this client: Record not found"), "\(frame)")
    }
  }

  @Test("A port held by another program is reported as such, not joined")
  func portHeldByAnotherProgram() async throws {
    let holder = try TCPHolder()
    defer { holder.close() }
    let demo = try DemoProcess("todos", ["--port", "\(holder.port)", "--data", "/tmp/unused-\(UUID()).sqlite"], label: "todos on a taken port")
    defer { demo.stop() }
    #expect(try await demo.waitForExit() == 1)
    #expect(demo.text.contains("port \(holder.port) is held by another program, not an instant-local"), "\(demo.text)")
    #expect(!demo.text.contains("joined"))
  }

  @Test("Unknown options and arguments are named as such")
  func unknownOptionsAndArguments() async throws {
    for (arguments, expected) in [
      (["--bogus"], "unknown option --bogus"), (["extra-arg"], "unknown argument “extra-arg”"),
      (["--room", "r"], "unknown option --room"),
    ] {
      let demo = try DemoProcess("todos", arguments, label: "todos \(arguments)")
      defer { demo.stop() }
      #expect(try await demo.waitForExit() == 1)
      #expect(demo.text.contains(expected), "\(demo.text)")
      #expect(!demo.text.contains("needs a value"))
    }
    let help = try DemoProcess("todos", ["--help"], label: "todos --help")
    defer { help.stop() }
    #expect(try await help.waitForExit() == 0)
    #expect(!help.text.contains("--room"), "todos has no rooms")
  }

  @Test("The README's piped example: the write reaches the server before the demo exits 0")
  func pipedWriteReachesTheServer() async throws {
    try await withInstantLocal { server in
      let url = "http://127.0.0.1:\(try #require(await server.port))"
      let demo = try DemoProcess("todos", ["--server", url, "--name", "ann"], label: "todos, piped")
      defer { demo.stop() }
      demo.type("add buy milk\n")  // at once: before the client has even connected
      demo.closeInput()  // the end of the pipe quits
      #expect(try await demo.waitForExit() == 0, "\(demo.text)")
      let reader = try DemoServer.remote(URL(string: url)!).client()
      let titles = try await eventually("the todo on the server", every: .milliseconds(50)) {
        let todos = try? await reader.queryOnce(["todos": [:]], timeout: .seconds(5)).data["todos"]
        let titles = todos?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
        return titles.isEmpty ? nil : titles
      }
      #expect(titles == ["buy milk"])
      await reader.shutdown()
    }
  }

  @Test("The end of input with a write the server never got: reported as not sent, exit 1")
  func unsentWriteIsReported() async throws {
    let holder = try TCPHolder()  // accepts and never answers: the client never authenticates
    defer { holder.close() }
    let demo = try DemoProcess("todos", ["--server", "http://127.0.0.1:\(holder.port)", "--name", "ann"], label: "todos, no server")
    defer { demo.stop() }
    try await demo.waitForFrame("the first frame") { $0.contains("Todos:") }
    demo.type("add lost\n")
    demo.closeInput()
    #expect(try await demo.waitForExit() == 1)
    #expect(demo.text.contains("todos: 1 write was not acknowledged by the server"), "\(demo.text)")
  }

  @Test("Ctrl-C answers at once while writes are in flight; a second Ctrl-C quits without waiting, reporting them")
  func quitWhileWritesAreInFlight() async throws {
    let holder = try TCPHolder()
    defer { holder.close() }
    let demo = try DemoProcess("todos", ["--server", "http://127.0.0.1:\(holder.port)", "--name", "ann"], label: "todos, quitting")
    defer { demo.stop() }
    try await demo.waitForFrame("the first frame") { $0.contains("Todos:") }
    demo.type("add one\nadd two\n\u{03}")
    try await demo.waitForOutput("the quitting line") { $0.contains("quitting: sending 2 writes to the server… (Ctrl-C quits now)") }
    demo.type("\u{03}")
    // Well before the 5 s the demo would wait for its writes.
    #expect(try await demo.waitForExit() == 1)
    #expect(demo.text.contains("todos: 2 writes were not acknowledged by the server"), "\(demo.text)")
  }
}

/// A program other than instant-local on a port: accepts connections, never answers.
final class TCPHolder: @unchecked Sendable {
  let port: Int
  private let fd: Int32

  init() throws {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound, listen(fd, 16) == 0 else { throw DemoProcessFailure("cannot listen: \(String(cString: strerror(errno)))") }
    self.fd = fd
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  func close() {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }
}
