import Foundation
import Logging
import NIOConcurrencyHelpers
import WSClient

/// A ``WebSocketTransport`` on SwiftNIO (`WSClient`), used by default on Linux and Apple
/// platforms. `ws://` and `wss://` URLs are supported.
///
/// A socket that stops answering is detected with WebSocket pings: one is sent every
/// `pingInterval`, and the socket is closed if the previous one was not answered.
public struct NIOWebSocketTransport: WebSocketTransport {
  public var pingInterval: Duration
  public var maxFrameSize: Int
  /// How long the TCP connect and the WebSocket handshake may take.
  public var connectTimeout: Duration

  public init(pingInterval: Duration = .seconds(10), maxFrameSize: Int = 1 << 26, connectTimeout: Duration = .seconds(10)) {
    self.pingInterval = pingInterval
    self.maxFrameSize = maxFrameSize
    self.connectTimeout = connectTimeout
  }

  public func connect(to url: URL) async throws -> any WebSocketConnection {
    let (messages, inbound) = AsyncThrowingStream<String, any Error>.makeStream()
    let (outgoing, outbound) = AsyncStream<String>.makeStream()
    let opened = OpenSignal()
    let configuration = WebSocketClientConfiguration(
      maxFrameSize: maxFrameSize, autoPing: .enabled(timePeriod: pingInterval))
    var logger = Logger(label: "instantdb.transport")
    logger.logLevel = .critical
    let maxSize = maxFrameSize
    let task = Task {
      do {
        try await WebSocketClient.connect(url: url.absoluteString, configuration: configuration, logger: logger) {
          socketIn, socketOut, _ in
          opened.resolve(nil)
          let writer = Task {
            for await text in outgoing { try await socketOut.write(.text(text)) }
            try? await socketOut.close(.normalClosure, reason: nil)
          }
          defer { writer.cancel() }
          for try await message in socketIn.messages(maxSize: maxSize) {
            if case let .text(text) = message { inbound.yield(text) }
          }
        }
        opened.resolve(WebSocketTransportError("the server refused the WebSocket upgrade at \(url)"))
        inbound.finish()
      } catch {
        opened.resolve(error)
        inbound.finish(throwing: error)
      }
    }
    let timeout = connectTimeout
    let timer = Task {
      try await Task.sleep(for: timeout)
      opened.resolve(WebSocketTransportError("no WebSocket handshake with \(url) within \(timeout)"))
    }
    let failure = await opened.wait()
    timer.cancel()
    if let failure {
      task.cancel()
      throw failure
    }
    return Connection(messages: messages, outbound: outbound, task: task)
  }

  struct Connection: WebSocketConnection {
    let messages: AsyncThrowingStream<String, any Error>
    let outbound: AsyncStream<String>.Continuation
    let task: Task<Void, Never>

    func send(_ text: String) { outbound.yield(text) }

    /// Sends a close frame and waits (at most two seconds) for the socket to finish.
    func close() async {
      outbound.finish()
      let task = self.task
      let deadline = Task {
        try await Task.sleep(for: .seconds(2))
        task.cancel()
      }
      await task.value
      deadline.cancel()
    }
  }
}

/// Resolves once: `nil` when the socket opened, or the error that stopped it.
final class OpenSignal: Sendable {
  private enum State {
    case waiting([CheckedContinuation<(any Error)?, Never>])
    case resolved((any Error)?)
  }

  // Safety: all access goes through the lock.
  private let state = NIOLockedValueBox(State.waiting([]))

  func resolve(_ error: (any Error)?) {
    let waiters: [CheckedContinuation<(any Error)?, Never>] = state.withLockedValue { state in
      guard case let .waiting(list) = state else { return [] }
      state = .resolved(error)
      return list
    }
    for waiter in waiters { waiter.resume(returning: error) }
  }

  func wait() async -> (any Error)? {
    await withCheckedContinuation { continuation in
      let resolved: (any Error)?? = state.withLockedValue { state in
        switch state {
        case var .waiting(list):
          list.append(continuation)
          state = .waiting(list)
          return nil
        case let .resolved(error):
          return .some(error)
        }
      }
      if let resolved { continuation.resume(returning: resolved) }
    }
  }
}
