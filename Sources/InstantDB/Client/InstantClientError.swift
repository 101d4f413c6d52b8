public import InstantCore

/// An error from the client: a write the server rejected, a query it refused, a write refused
/// because the app is read-only, or a problem with local storage.
///
/// Switch on ``kind``; show ``message``. A server error keeps the server's ``serverType`` and
/// ``hint``; an error that started elsewhere (InstaML refusing the ops, the SQLite file, the HTTP
/// request, a decoder) keeps that error in ``underlying``.
public struct InstantClientError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, to switch on.
  public enum Kind: Sendable, Equatable {
    /// The server rejected a transaction; ``InstantClientError/serverType`` has its wire type
    /// (`validation-failed`, `record-not-unique`, `permission-denied`, …).
    case transactionRejected
    /// The server refused a query (``InstantClientError/serverType`` as above).
    case queryRejected
    /// The server refused `init`: the app id or the signed-in user is unknown.
    case initRejected
    /// The query is malformed (InstantCore refused to evaluate it).
    case invalidQuery
    /// The ops could not be turned into tx-steps (an unknown attribute with a schema, a bad lookup).
    case invalidOps
    /// The app is read-only on the server; writes are refused until it is active again.
    case appReadOnly
    /// The app is disabled on the server.
    case appDisabled
    /// `queryOnce` needs the server and the client is not connected, or an auth request got no
    /// answer from `apiURI`.
    case offline
    /// No answer in time.
    case timedOut
    /// The local database could not be opened or written.
    case storage
    /// The client was shut down.
    case shutDown
    /// `synced()` for a write this client does not know (made by another client, or finished long
    /// ago: the outcomes of the last 1,000 writes are kept).
    case unknownWrite
    /// The server refused a room operation (join, presence, broadcast).
    case roomRejected
    /// A peer's presence or a topic event does not decode as the room's Swift type.
    case presenceDecoding
    /// The server refused an auth request: a wrong or expired magic code, an unknown token, …
    case authRejected
    /// The server refused a file upload or delete (``InstantClient/storage``): the app's `$files`
    /// rules (`permission-denied`), a file over the server's size limit, a missing path, …
    case fileRejected
    /// A write the server had not confirmed when the signed-in user changed; it was not re-sent.
    case userChanged
    /// The task waiting for the answer was cancelled (``InstantClient/queryOnce(_:timeout:)``, an
    /// auth request); nothing was changed on this device.
    case cancelled
  }

  public var kind: Kind
  /// The message to show: the server's own words for server errors.
  public var message: String
  /// The server's error type (for server errors): `.permissionDenied`, `.recordNotUnique`, …
  public var serverType: ServerErrorType?
  /// The server's `hint` (for server errors).
  public var hint: JSON?
  /// The error this one reports, when it started outside the client: an `InstaMLError` for
  /// ``Kind/invalidOps``, an `InstaQLError` for ``Kind/invalidQuery``, the database's error for
  /// ``Kind/storage``, the `URLError` for ``Kind/offline`` from an auth request, the
  /// `DecodingError` for ``Kind/presenceDecoding``. Not part of `==`.
  public var underlying: (any Error)?

  public init(
    _ kind: Kind, _ message: String, serverType: ServerErrorType? = nil, hint: JSON? = nil, underlying: (any Error)? = nil
  ) {
    self.kind = kind
    self.message = message
    self.serverType = serverType
    self.hint = hint
    self.underlying = underlying
  }

  /// Whether the app's permission rules refused the request (`permission-denied`): a write they
  /// refuse is withdrawn, and retrying it is refused again.
  public var isPermissionDenied: Bool { serverType == .permissionDenied }

  /// Equal when they say the same thing (kind, message, server type and hint); ``underlying`` is
  /// left out, as an `any Error` has no equality.
  public static func == (a: Self, b: Self) -> Bool {
    a.kind == b.kind && a.message == b.message && a.serverType == b.serverType && a.hint == b.hint
  }

  public var description: String {
    if let serverType { return "\(message) (\(serverType.rawValue))" }
    return message
  }

  /// A server's error as an error of `kind`.
  init(_ error: ServerError, kind: Kind) {
    self.init(kind, error.message, serverType: error.type, hint: error.hint)
  }
}
