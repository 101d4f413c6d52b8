import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of the HTTP routes: Hummingbird's basic one plus the TCP peer's address,
/// from which ``ClientAddresses`` finds the client's.
struct HTTPRequestContext: RequestContext, RemoteAddressRequestContext {
  var coreContext: CoreRequestContextStorage
  let remoteAddress: SocketAddress?

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
  }
}

extension HTTPField.Name {
  static let xForwardedFor = Self("X-Forwarded-For")!
}

extension ClientAddresses {
  /// The client's address for `request`, which came through `context`'s connection.
  func client(_ request: Request, _ context: some RemoteAddressRequestContext) -> String {
    client(peer: context.remoteAddress?.ipAddress ?? "", forwardedFor: request.headers[values: .xForwardedFor])
  }
}
