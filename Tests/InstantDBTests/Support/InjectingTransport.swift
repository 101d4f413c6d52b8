import TestSupport
import Foundation
import InstantDB

/// Fault injection: a real NIO socket whose incoming frames can be joined by frames the test
/// makes up (malformed, unexpected, out of order) and whose outgoing frames are recorded.
final class InjectingTransport: WebSocketTransport {
  private let base = NIOWebSocketTransport()
  private let current = Locked<AsyncThrowingStream<String, any Error>.Continuation?>(nil)
  private let sentFrames = Locked<[String]>([])
  /// Incoming frames for which this returns true are dropped, as if lost with the socket.
  let dropIncoming = Locked<@Sendable (String) -> Bool>({ _ in false })
  /// The frames dropped so far.
  let dropped = Locked<[String]>([])
  /// Outgoing frames for which this returns true never reach the server (they are still
  /// recorded in ``sent``), as if lost on the way.
  let dropOutgoing = Locked<@Sendable (String) -> Bool>({ _ in false })

  func connect(to url: URL) async throws -> any WebSocketConnection {
    let real = try await base.connect(to: url)
    let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
    current.withLock { $0 = continuation }
    let drop = dropIncoming
    let dropped = self.dropped
    let forward = Task {
      do {
        for try await text in real.messages {
          if drop.withLock({ $0 })(text) {
            dropped.withLock { $0.append(text) }
          } else {
            continuation.yield(text)
          }
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    return Connection(real: real, messages: stream, forward: forward, sent: sentFrames, dropOutgoing: dropOutgoing)
  }

  /// Delivers `text` to the client as if the server had sent it.
  func inject(_ text: String) {
    _ = current.withLock { $0?.yield(text) }
  }

  var sent: [String] { sentFrames.withLock { $0 } }

  /// Records every frame the server sends from now on (none is dropped); returns the record.
  func recordIncoming() -> Locked<[String]> {
    let record = Locked<[String]>([])
    dropIncoming.withLock {
      $0 = { text in
        record.withLock { $0.append(text) }
        return false
      }
    }
    return record
  }

  struct Connection: WebSocketConnection {
    let real: any WebSocketConnection
    let messages: AsyncThrowingStream<String, any Error>
    let forward: Task<Void, Never>
    let sent: Locked<[String]>
    let dropOutgoing: Locked<@Sendable (String) -> Bool>

    func send(_ text: String) {
      sent.withLock { $0.append(text) }
      if !dropOutgoing.withLock({ $0 })(text) { real.send(text) }
    }

    func close() async {
      await real.close()
      await forward.value
    }
  }
}
