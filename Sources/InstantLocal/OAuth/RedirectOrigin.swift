import Foundation

/// Where an app's OAuth web sign-in may send the browser back to, and which pages may exchange its
/// code (docs/instant-local.md, "Sign in with OAuth in a browser"): a web origin
/// (`https://app.example.com`, `http://localhost:3000`) or an app's own URL scheme (`myapp`, for
/// `myapp://signed-in`). An app without any has no web sign-in. Made with `instant-local apps
/// redirect-origins add` or ``AppCatalog/addRedirectOrigin(appID:_:)``.
public struct RedirectOrigin: Sendable, Hashable {
  public enum Kind: String, Sendable {
    /// `scheme://host[:port]`: the scheme, host and port must all match.
    case origin
    /// A custom URL scheme, for a native app.
    case scheme
  }

  public var kind: Kind
  /// The origin as `scheme://host[:port]` (lowercased, no default port), or the scheme.
  public var value: String

  init(kind: Kind, value: String) {
    self.kind = kind
    self.value = value
  }

  /// A web origin; `nil` unless `text` is an http(s) URL with a host and nothing after it but `/`.
  public static func origin(_ text: String) -> RedirectOrigin? {
    guard let url = URL(string: text), let origin = Self.origin(of: url), url.path.isEmpty || url.path == "/",
      url.query == nil, url.fragment == nil
    else { return nil }
    return RedirectOrigin(kind: .origin, value: origin)
  }

  /// A native app's URL scheme; `nil` for one that is not a scheme, or that names something else
  /// than an app (`http`, `https`, `file`, `javascript`, `data` and the like).
  public static func scheme(_ text: String) -> RedirectOrigin? {
    let scheme = text.lowercased()
    guard let first = scheme.unicodeScalars.first, CharacterSet.lowercaseLetters.contains(first),
      scheme.unicodeScalars.allSatisfy({ CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789+-.").contains($0) }),
      !reservedSchemes.contains(scheme)
    else { return nil }
    return RedirectOrigin(kind: .scheme, value: scheme)
  }

  /// Schemes that name something other than an app, never accepted as one.
  static let reservedSchemes: Set<String> = [
    "http", "https", "file", "javascript", "data", "blob", "about", "ftp", "ws", "wss", "mailto", "tel", "sms", "vbscript",
  ]

  /// `scheme://host[:port]` of an http(s) URL (the default port left out), lowercased.
  static func origin(of url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased(),
      !host.isEmpty
    else { return nil }
    let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    let port = url.port.flatMap { (scheme == "http" && $0 == 80) || (scheme == "https" && $0 == 443) ? nil : $0 }
    return "\(scheme)://\(bracketed)" + (port.map { ":\($0)" } ?? "")
  }

  /// Whether `url` (a `redirect_uri`, or a page's `Origin`) is one of `origins`.
  static func allows(_ url: URL, in origins: [RedirectOrigin]) -> Bool {
    if let origin = origin(of: url) { return origins.contains(RedirectOrigin(kind: .origin, value: origin)) }
    guard let scheme = url.scheme?.lowercased(), !reservedSchemes.contains(scheme) else { return false }
    return origins.contains(RedirectOrigin(kind: .scheme, value: scheme))
  }
}
