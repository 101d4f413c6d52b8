import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of `/runtime/session`: Hummingbird's basic WebSocket context plus the
/// connection's channel, so a session can end its connection outright — a reader too slow for
/// its queue (``SessionSink``) is cut off even while a write to it waits for the socket.
struct SessionRequestContext: RequestContext, WebSocketRequestContext {
  var coreContext: CoreRequestContextStorage
  let webSocket: WebSocketHandlerReference<Self>
  let channel: any Channel

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    webSocket = .init()
    channel = source.channel
  }
}
