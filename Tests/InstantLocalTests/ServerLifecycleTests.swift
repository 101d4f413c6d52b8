import InstantLocal
import Logging
import Testing

@Suite("server lifecycle")
struct ServerLifecycleTests {
  @Test func aBusyPortIsAnErrorNotAHang() async throws {
    let first = try await TestServer.start()
    defer { Task { await first.stop() } }
    var logger = Logger(label: "instant-local-test")
    logger.logLevel = .critical
    let second = try InstantLocalServer(configuration: .init(port: first.port, storage: .memory), logger: logger)
    await #expect(throws: InstantLocalError.self) { _ = try await second.start() }
  }

  @Test func startIsIdempotentAndStopFreesThePort() async throws {
    let server = try await TestServer.start()
    let again = try await server.server.start()
    #expect(again == server.port)
    await server.stop()
    var logger = Logger(label: "instant-local-test")
    logger.logLevel = .critical
    let reuse = try InstantLocalServer(configuration: .init(port: server.port, storage: .memory), logger: logger)
    let port = try await reuse.start()
    #expect(port == server.port)
    await reuse.stop()
  }
}
