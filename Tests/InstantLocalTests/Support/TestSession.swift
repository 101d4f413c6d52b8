import Foundation
import HummingbirdWSClient
import InstantCore
import Logging
import TestSupport
internal import NIOWebSocket
internal import OrderedCollections

/// A real WebSocket client session against a server on loopback.
final class TestSession: Sendable {
  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  let mailbox = Mailbox()
  private let outgoing: AsyncStream<String>.Continuation
  private let task: Task<Void, Never>

  /// Opens a socket to `/runtime/session` (nothing is sent yet).
  init(port: Int, appID: String = TestSession.appID) {
    let (stream, continuation) = AsyncStream<String>.makeStream()
    outgoing = continuation
    let mailbox = self.mailbox
    task = Task {
      var logger = Logger(label: "test-client")
      logger.logLevel = .critical
      _ = try? await WebSocketClient.connect(
        url: "ws://127.0.0.1:\(port)/runtime/session?app_id=\(appID)",
        configuration: .init(maxFrameSize: 1 << 24), logger: logger
      ) { inbound, outbound, _ in
        let writer = Task {
          for await text in stream { try? await outbound.write(.text(text)) }
          try? await outbound.close(.normalClosure, reason: nil)
        }
        do {
          for try await message in inbound.messages(maxSize: 1 << 24) {
            if case let .text(text) = message, let json = try? JSON.parse(text) { await mailbox.put(json) }
          }
        } catch {}
        writer.cancel()
      }
      await mailbox.close()
    }
  }

  static let appID = "0e563ace-d25f-44f6-ae00-4e6b9b6d1b2e"
  static let modernVersions: JSON = ["@instantdb/core": "v1.0.65"]

  /// Connects and completes `init`; returns `init-ok`.
  static func connected(
    port: Int, appID: String = TestSession.appID, versions: JSON? = TestSession.modernVersions, refreshToken: String? = nil
  ) async throws -> (TestSession, JSON) {
    let session = TestSession(port: port, appID: appID)
    var message: JSONObject = ["op": "init", "app-id": .string(appID)]
    if let versions { message["versions"] = versions }
    if let refreshToken { message["refresh-token"] = .string(refreshToken) }
    let reply = try await session.request(.object(message))
    return (session, reply)
  }

  func sendRaw(_ text: String) { outgoing.yield(text) }

  func send(_ message: JSON) { outgoing.yield(message.serialized()) }

  /// Sends `message` with a fresh `client-event-id` and returns the first reply that echoes it.
  @discardableResult
  func request(_ message: JSON, timeout: Duration = backstop) async throws -> JSON {
    guard case var .object(o) = message else { throw Timeout(description: "not an object") }
    let id = UUID().uuidString.lowercased()
    o["client-event-id"] = .string(id)
    send(.object(o))
    return try await next(timeout: timeout) { $0["client-event-id"] == .string(id) }
  }

  /// The next message matching `predicate` (others received before it are dropped).
  func next(timeout: Duration = backstop, where predicate: (JSON) -> Bool = { _ in true }) async throws -> JSON {
    let deadline = ContinuousClock.now + timeout
    while true {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero, let message = await mailbox.take(timeout: remaining) else {
        throw Timeout(description: "no matching message within \(timeout)")
      }
      if predicate(message) { return message }
    }
  }

  /// The next message with this op.
  func next(op: String, timeout: Duration = backstop) async throws -> JSON {
    try await next(timeout: timeout) { $0["op"] == .string(op) }
  }

  /// Messages that arrive within `window`.
  func collect(for window: Duration) async -> [JSON] {
    var out: [JSON] = []
    let deadline = ContinuousClock.now + window
    while true {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero, let message = await mailbox.take(timeout: remaining) else { return out }
      out.append(message)
    }
  }

  /// Closes the socket and waits for the client to finish.
  func close() async {
    outgoing.finish()
    await task.value
  }
}
