import Dependencies
import Foundation
import InstantDB

/// The client's auth state and the status of auth operations: `@Shared(.instantAuth) var auth`.
/// Operations are methods on `$auth` (`signInAsGuest`, `sendMagicCode`, `verifyMagicCode`,
/// `signInWithIdToken`, `signOut`, `clearError`).
public struct InstantAuthKey: SharedKey {
  public typealias Value = AuthSession

  let session: Session
  public var id: InstantKeyID { session.id }

  /// The session this key last yielded or was given.
  /// Read and written under `lock` only, which makes `@unchecked Sendable` sound.
  final class Session: @unchecked Sendable {
    let lock = NSLock()
    let client: InstantClient
    let id: InstantKeyID
    var value: AuthSession

    init(client: InstantClient) {
      self.client = client
      id = InstantKeyID(client: client, query: "auth", kind: "auth")
      value = AuthSession(state: .loading, operationStatus: .idle, error: nil, client: client)
    }

    func withState(_ state: AuthState) -> AuthSession {
      lock.withLock {
        value.state = state
        return value
      }
    }
  }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    let session = session
    Task { continuation.resume(returning: session.withState(await session.client.authState)) }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    let session = session
    let updates = session.client.authStateUpdates()
    let task = Task {
      for await state in updates { subscriber.yield(session.withState(state)) }
    }
    return SharedSubscription { task.cancel() }
  }

  /// Keeps the operation status and error `$auth` set; the auth state itself only changes
  /// through the client.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    session.lock.withLock {
      session.value.operationStatus = value.operationStatus
      session.value.error = value.error
    }
    continuation.resume()
  }
}

extension SharedReaderKey where Self == InstantAuthKey.Default {
  /// Auth for `DependencyValues.defaultInstant`.
  public static var instantAuth: Self { instantAuth(client: nil) }

  /// Auth for `client` (`DependencyValues.defaultInstant` when `nil`).
  public static func instantAuth(client: InstantClient?) -> Self {
    @Dependency(\.defaultInstant) var defaultInstant
    let key = InstantAuthKey(session: InstantAuthKey.Session(client: client ?? defaultInstant))
    return Self[key, default: key.session.lock.withLock { key.session.value }]
  }
}
