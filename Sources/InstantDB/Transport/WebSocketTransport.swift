public import Foundation

/// Opens WebSocket connections for an ``InstantClient``.
///
/// The client needs very little from a socket: open it, send text frames, read text frames until
/// it closes. Conform to this protocol to run the client over another stack (a proxy, a test
/// double for fault injection). ``NIOWebSocketTransport`` is the default on every platform;
/// `URLSessionWebSocketTransport` is available on Apple platforms.
public protocol WebSocketTransport: Sendable {
  /// Opens a socket to `url`. Returns once the WebSocket handshake has completed; throws if it
  /// cannot be opened.
  func connect(to url: URL) async throws -> any WebSocketConnection
}

/// One open WebSocket.
public protocol WebSocketConnection: Sendable {
  /// The text frames the server sends, in order. The sequence ends (or throws) when the socket
  /// closes for any reason.
  var messages: AsyncThrowingStream<String, any Error> { get }
  /// Queues a text frame. Frames are sent in the order they are queued; a frame queued after the
  /// socket closed is dropped (the client re-sends what matters after it reconnects).
  func send(_ text: String)
  /// Closes the socket; `messages` then ends.
  func close() async
}

/// Why a transport could not open or keep a socket.
public struct WebSocketTransportError: Error, CustomStringConvertible, Sendable {
  public var description: String
  /// The networking library's own error, when one caused this.
  public var underlying: (any Error)?
  public init(_ description: String, underlying: (any Error)? = nil) {
    self.description = description
    self.underlying = underlying
  }
}
