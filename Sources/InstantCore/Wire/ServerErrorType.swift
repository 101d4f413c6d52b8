/// An error's `type` as the reference server names it: what a client switches on, never the
/// message, whose words differ between servers.
///
/// The set is open (a server may send a type this library does not list), so this is a struct
/// with the known types as constants rather than an enum; a string literal is one.
public struct ServerErrorType: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }

  public var description: String { rawValue }

  /// The input is well-formed but not acceptable (`hint.data-type` says which part).
  public static let validationFailed: Self = "validation-failed"
  /// A required parameter is absent.
  public static let paramMissing: Self = "param-missing"
  /// A parameter has the wrong type or shape (also: an unknown op, malformed JSON).
  public static let paramMalformed: Self = "param-malformed"
  /// The record a request names does not exist (`hint.record-type` says which).
  public static let recordNotFound: Self = "record-not-found"
  /// A unique value, an attr or an entity (in `create` mode) exists already.
  public static let recordNotUnique: Self = "record-not-unique"
  /// A magic code or token that has expired.
  public static let recordExpired: Self = "record-expired"
  /// A reference to a record that does not exist.
  public static let recordForeignKeyInvalid: Self = "record-foreign-key-invalid"
  /// A value a check constraint refuses.
  public static let recordCheckViolation: Self = "record-check-violation"
  /// A permission rule (or a system namespace's) refused the request.
  public static let permissionDenied: Self = "permission-denied"
  /// A permission rule could not be evaluated; the request is refused.
  public static let permissionEvaluationFailed: Self = "permission-evaluation-failed"
  /// The server's storage raised an error.
  public static let sqlRaise: Self = "sql-raise"
  /// Too many requests.
  public static let rateLimited: Self = "rate-limited"
  /// The request took too long.
  public static let operationTimedOut: Self = "operation-timed-out"
  /// An OAuth sign-in failed: an ID token whose signature, key or expiry does not hold, or a
  /// provider that could not be reached.
  public static let oauthError: Self = "oauth-error"
}
