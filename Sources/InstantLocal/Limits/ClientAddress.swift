import Foundation

/// Who a request comes from: the TCP peer's address, or — when that peer is a proxy the server
/// trusts (`--trusted-proxy`) — the address it says it forwards for. Per-address limits and logs
/// use it.
struct ClientAddresses: Sendable, Equatable {
  /// The proxies' addresses (nginx or Caddy on the same host: `127.0.0.1`).
  var trustedProxies: Set<String> = []

  /// The client's address for a request from `peer` carrying these `X-Forwarded-For` headers.
  ///
  /// `X-Forwarded-For` is a list each proxy appends its peer to, so only its right end can be
  /// believed: walking from the right, the first address that is not a trusted proxy is the
  /// client (anything left of it the client may have written itself). A header from an untrusted
  /// peer is ignored.
  func client(peer: String, forwardedFor: [String]) -> String {
    let peer = Self.normalize(peer)
    guard trustedProxies.contains(peer), !forwardedFor.isEmpty else { return peer }
    let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { Self.normalize(String($0)) }
    for hop in hops.reversed() where !trustedProxies.contains(hop) {
      return hop.isEmpty ? peer : hop
    }
    return hops.first.flatMap { $0.isEmpty ? nil : $0 } ?? peer
  }

  /// The address as compared: trimmed, an IPv4 address mapped into IPv6 written as IPv4.
  static func normalize(_ address: String) -> String {
    let trimmed = address.trimmingCharacters(in: .whitespaces)
    return trimmed.lowercased().hasPrefix("::ffff:") && trimmed.contains(".") ? String(trimmed.dropFirst(7)) : trimmed
  }
}
