import Foundation
import InstantCore
import InstantDB
import TestSupport

/// A transport with no server behind it: the test reads what the client sends, in order, and
/// answers as the server would. Each socket the client opens is one ``Socket``.
final class ScriptedTransport: WebSocketTransport {
  /// One socket the client opened: what it sent, and a way to answer.
  final class Socket: WebSocketConnection {
    let messages: AsyncThrowingStream<String, any Error>
    private let incoming: AsyncThrowingStream<String, any Error>.Continuation
    private let outgoing: AsyncStream<JSON>.Continuation
    private let sentFrames: AsyncStream<JSON>
    private let onSend: @Sendable (JSON) -> Void

    init(onSend: @escaping @Sendable (JSON) -> Void) {
      (messages, incoming) = AsyncThrowingStream.makeStream()
      (sentFrames, outgoing) = AsyncStream.makeStream()
      self.onSend = onSend
    }

    func send(_ text: String) {
      let frame = (try? JSON.parse(text)) ?? .string(text)
      onSend(frame)
      outgoing.yield(frame)
    }

    func close() async {
      incoming.finish()
      outgoing.finish()
    }

    /// The frames the client sends on this socket, in order.
    var sent: AsyncStream<JSON> { sentFrames }

    /// Delivers `frame` to the client as the server's.
    func answer(_ frame: JSON) { incoming.yield(frame.serialized()) }
  }

  private let sockets: AsyncStream<Socket>
  private let opened: AsyncStream<Socket>.Continuation
  /// Runs on the client's actor as each frame is sent, before the next line of the client's code.
  let onSend: Locked<@Sendable (JSON) -> Void> = Locked({ _ in })

  init() { (sockets, opened) = AsyncStream.makeStream() }

  func connect(to url: URL) async throws -> any WebSocketConnection {
    let hook = onSend
    let socket = Socket { frame in hook.withLock { $0 }(frame) }
    opened.yield(socket)
    return socket
  }

  /// The sockets the client opens, in order.
  var openedSockets: AsyncStream<Socket> { sockets }
}

extension AsyncStream<JSON>.Iterator {
  /// The next frame sent, which must have `op`.
  mutating func next(op: String) async throws -> JSON {
    guard let frame = await next() else { throw ScriptError("the socket closed before the client sent \(op)") }
    guard frame["op"]?.stringValue == op else { throw ScriptError("expected \(op), the client sent \(frame.serialized())") }
    return frame
  }
}

struct ScriptError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
