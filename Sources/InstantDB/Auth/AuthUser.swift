public import InstantCore
import OrderedCollections

/// The signed-in user. Its refresh token (the only credential) is kept inside the client and never
/// appears in ``description``, a mirror, a log line or an error.
public struct AuthUser: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public let id: String
  public let email: String?
  /// A guest: signed in without an email (``InstantClient/signInAsGuest()``).
  public let isGuest: Bool
  /// Every field the server sent about the user (`$users` attributes, `created_at`, …), minus the
  /// refresh token.
  public let fields: JSON
  let refreshToken: String

  /// The server's user object (docs/protocol.md, "The user object"); nil without an id or a refresh token.
  init?(json: JSON, refreshToken fallback: String? = nil) {
    guard case var .object(o) = json, let id = o["id"]?.stringValue,
      let token = o["refresh_token"]?.stringValue ?? fallback
    else { return nil }
    self.id = id
    self.email = o["email"]?.stringValue
    // `isGuest` is missing from some server paths; `type` is always there (docs/protocol.md, "The user object").
    self.isGuest = o["isGuest"]?.boolValue ?? (o["type"]?.stringValue == "guest")
    o.removeValue(forKey: "refresh_token")
    self.fields = .object(o)
    self.refreshToken = token
  }

  /// The server's shape, token included, as the client stores it.
  var stored: JSON {
    guard case var .object(o) = fields else { return fields }
    o["refresh_token"] = .string(refreshToken)
    return .object(o)
  }

  public var description: String {
    "AuthUser(id: \(id)\(email.map { ", email: \($0)" } ?? "")\(isGuest ? ", guest" : ""))"
  }

  public var debugDescription: String { description }

  public var customMirror: Mirror {
    Mirror(self, children: ["id": id, "email": email as Any, "isGuest": isGuest, "fields": fields])
  }
}

/// Who is signed in.
public enum AuthState: Sendable, Equatable {
  /// The stored user has not been read yet (only just after the client starts).
  case loading
  case signedOut
  case guest(AuthUser)
  case signedIn(AuthUser)

  init(_ user: AuthUser?) {
    guard let user else {
      self = .signedOut
      return
    }
    self = user.isGuest ? .guest(user) : .signedIn(user)
  }

  /// The user, guest or not.
  public var user: AuthUser? {
    switch self {
    case .loading, .signedOut: nil
    case let .guest(user), let .signedIn(user): user
    }
  }
}
