import InstantLocal
import InstantLocalTesting
import Logging
import TestSupport
import Testing
internal import FoundationEssentials

@Suite("server lifecycle")
struct ServerLifecycleTests {
  @Test func aBusyPortNamesTheAddressAndTheOSReason() async throws {
    try await withInstantLocal { first in
      let port = try await first.boundPort
      let second = try InstantLocalServer(configuration: .init(port: port, storage: .memory), logger: .quiet)
      let error = await #expect(throws: InstantLocalError.self) { try await second.start() }
      guard case let .cannotListen(address, reason) = error else {
        Issue.record("expected cannotListen, got \(String(describing: error))")
        return
      }
      #expect(address == "127.0.0.1:\(port)")
      #expect(reason.contains("Address already in use"))
      #expect(error?.description.contains("port 0") == true, "the message says what to do")
      #expect(await second.port == nil)
    }
  }

  @Test func startIsIdempotentAndStopFreesThePort() async throws {
    // A port below the ephemeral range: once this server stops, no other test's port-0 server can
    // be given it before the restart below binds it again.
    let port = try await withInstantLocal(configuration: .init(port: portForRestarts(), storage: .memory)) { server in
      let port = try await server.boundPort
      #expect(try await server.start() == port)
      #expect(await server.webSocketURL?.absoluteString == "ws://127.0.0.1:\(port)/runtime/session")
      #expect(await server.baseURL?.absoluteString == "http://127.0.0.1:\(port)")
      return port
    }
    let reuse = try InstantLocalServer(configuration: .init(port: port, storage: .memory), logger: .quiet)
    #expect(try await reuse.start() == port)
    await reuse.stop()
    #expect(await reuse.port == nil)
  }

  @Test func withInstantLocalStopsTheServerWhenTheBodyThrows() async throws {
    struct Failure: Error {}
    var seen: InstantLocalServer?
    do {
      try await withInstantLocal { server in
        seen = server
        throw Failure()
      }
      Issue.record("the body's error was not passed on")
    } catch is Failure {}
    let server = try #require(seen)
    #expect(await server.port == nil, "stopped")
  }
}

extension Logger {
  /// Logs nothing (for servers expected to fail).
  static var quiet: Logger {
    var logger = Logger(label: "instant-local-test")
    logger.logLevel = .critical
    return logger
  }
}
