public import InstantCore
import OrderedCollections

/// An app's user as the admin API returns it. Its refresh token, when the request made one
/// (``InstantAdmin/createToken(email:)``, ``InstantAdmin/verifyMagicCode(email:code:)``), is
/// ``refreshToken``; it never appears in ``description``.
public struct AdminUser: Sendable, Equatable, CustomStringConvertible {
  public let id: String
  public let email: String?
  public let isGuest: Bool
  /// The refresh token a sign-in made, to hand to a client (or `asUser(refreshToken:)`).
  public let refreshToken: String?
  /// Every field the server sent (`$users` attributes, `created_at`, …), minus the refresh token.
  public let fields: JSON

  init?(_ json: JSON?) {
    guard case var .object(o)? = json, let id = o["id"]?.stringValue else { return nil }
    self.id = id
    email = o["email"]?.stringValue
    isGuest = o["isGuest"]?.boolValue ?? (o["type"]?.stringValue == "guest")
    refreshToken = o.removeValue(forKey: "refresh_token")?.stringValue
    fields = .object(o)
  }

  public var description: String {
    "AdminUser(id: \(id)\(email.map { ", email: \($0)" } ?? "")\(isGuest ? ", guest" : ""))"
  }
}
