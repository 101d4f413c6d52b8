import Foundation
import InstantCore

/// Who is signed in, as a state machine the reactor owns (docs/protocol.md, "Auth on the socket"):
/// the user is bound to a socket by `init`, so a change of user is stored, forgets the results
/// read with the old user's permissions and opens a new socket with the new `refresh-token`.
/// Each event returns the actions to perform; the file, the watchers and the socket are the
/// reactor's (`AuthSessionTests` checks each path alone).
struct AuthSession {
  enum Action: Equatable {
    /// Keep the user (nil: signed out) in the user file.
    case store(AuthUser?)
    /// Tell the watchers.
    case publish(AuthState)
    /// Forget every server result, in memory and on disk.
    case forgetResults
    /// Writes the server has not confirmed are rejected: they were made as another user.
    case rejectUnconfirmedWrites
    /// Open a new socket, whose `init` carries the new token.
    case reconnect
  }

  private(set) var state: AuthState = .loading
  var file = UserFile(storage: .memory, problem: nil)
  var watchers = Watchers<AuthState>()

  var user: AuthUser? { state.user }

  /// The stored user, read once before the first socket.
  mutating func loaded(_ user: AuthUser?) -> [Action] {
    guard case .loading = state else { return [] }
    return setState(AuthState(user))
  }

  /// Makes `user` the signed-in user (nil: signed out). Unconfirmed writes are rejected unless
  /// the user id stays the same (a guest upgraded by a magic code keeps its id and its writes).
  mutating func change(to user: AuthUser?) -> [Action] {
    let old = self.user
    if case .loading = state {} else if old == user { return [] }
    var actions: [Action] = [.store(user)] + setState(AuthState(user))
    guard old != user else { return actions }
    actions.append(.forgetResults)
    if old?.id != user?.id { actions.append(.rejectUnconfirmedWrites) }
    actions.append(.reconnect)
    return actions
  }

  /// The user from `init-ok` (`auth.user`) of a socket whose `init` carried `initToken`: fresher
  /// fields for the same user. An `init-ok` for a socket opened before a sign-in speaks for the
  /// previous user, who may have the same id (a guest upgraded in place): it must not undo it.
  mutating func initUser(_ json: JSON?, initToken: String?) -> [Action] {
    guard let current = user, initToken == current.refreshToken, let json,
      let fresh = AuthUser(json: json, refreshToken: current.refreshToken)
    else { return [] }
    return verified(fresh)
  }

  /// The server's current view of the signed-in user (same id and token): stored, no reconnect.
  mutating func verified(_ fresh: AuthUser) -> [Action] {
    guard let current = user, fresh.id == current.id, fresh.refreshToken == current.refreshToken, fresh != current else {
      return []
    }
    return [.store(fresh)] + setState(AuthState(fresh))
  }

  /// Whether `error` refuses this socket's user: an `init` refused because its refresh token is
  /// unknown (revoked, user deleted), which signs out.
  static func refusesUser(_ error: ServerError, originalOp: ClientOp?, isAuthenticated: Bool) -> Bool {
    (originalOp == .initialize || !isAuthenticated) && error.type == .recordNotFound
      && error.hint["record-type"]?.stringValue == "app-user"
  }

  private mutating func setState(_ new: AuthState) -> [Action] {
    guard new != state else { return [] }
    state = new
    return [.publish(new)]
  }
}
