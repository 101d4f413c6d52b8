#if canImport(Darwin)
  import Foundation

  /// A ``WebSocketTransport`` on `URLSessionWebSocketTask` (Apple platforms only; on Linux
  /// Foundation's URLSession has no WebSocket support, use ``NIOWebSocketTransport``).
  /// URLSession answers server pings itself; a dead socket is detected with `sendPing`.
  public struct URLSessionWebSocketTransport: WebSocketTransport {
    public var session: URLSession
    public var pingInterval: Duration

    public init(session: URLSession = .shared, pingInterval: Duration = .seconds(10)) {
      self.session = session
      self.pingInterval = pingInterval
    }

    public func connect(to url: URL) async throws -> any WebSocketConnection {
      let task = session.webSocketTask(with: url)
      task.maximumMessageSize = 1 << 26
      task.resume()
      // The handshake completes before the first send succeeds.
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        task.sendPing { error in
          if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
      }
      let (messages, inbound) = AsyncThrowingStream<String, any Error>.makeStream()
      let reader = Task {
        do {
          while true {
            switch try await task.receive() {
            case let .string(text): inbound.yield(text)
            case let .data(data): inbound.yield(String(decoding: data, as: UTF8.self))
            @unknown default: break
            }
          }
        } catch {
          inbound.finish(throwing: error)
        }
      }
      let interval = pingInterval
      let pinger = Task {
        while !Task.isCancelled {
          // Cancelled when the connection closes: stop, rather than ping a closed task once more.
          do { try await Task.sleep(for: interval) } catch { return }
          let alive = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            task.sendPing { continuation.resume(returning: $0 == nil) }
          }
          if !alive {
            task.cancel(with: .goingAway, reason: nil)
            return
          }
        }
      }
      return Connection(task: task, messages: messages, reader: reader, pinger: pinger)
    }

    struct Connection: WebSocketConnection {
      let task: URLSessionWebSocketTask
      let messages: AsyncThrowingStream<String, any Error>
      let reader: Task<Void, Never>
      let pinger: Task<Void, Never>

      func send(_ text: String) {
        task.send(.string(text)) { _ in }
      }

      func close() async {
        pinger.cancel()
        task.cancel(with: .normalClosure, reason: nil)
        await reader.value
      }
    }
  }
#endif
