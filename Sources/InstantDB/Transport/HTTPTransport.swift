public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// How the client makes its HTTP requests (sign-in, `$files`): Foundation's `URLSession` by
/// default, or ``NIOHTTPTransport``, which trusts certificates you name (a self-hosted
/// instant-local behind a private CA; `URLSession` on Linux trusts the system's only).
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the response's status and body.
  func send(_ request: URLRequest) async throws -> (status: Int, body: Data)
}

/// ``HTTPTransport`` on `URLSession`: the default.
public struct URLSessionHTTPTransport: HTTPTransport {
  public init() {}

  public func send(_ request: URLRequest) async throws -> (status: Int, body: Data) {
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
  }
}
