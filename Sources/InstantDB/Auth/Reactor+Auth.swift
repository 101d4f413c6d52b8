import Foundation
import InstantCore
import Logging

/// Applying auth changes (docs/protocol.md, "Auth on the socket"): the user is bound to a socket by `init`, so every
/// change is stored, clears cached results and opens a new socket with the new `refresh-token`.
extension Reactor {
  /// Reads the stored user (once, before the first socket).
  func loadUser(from file: UserFile) {
    guard case .loading = auth.state else { return }
    auth.file = file
    var user: AuthUser?
    do {
      user = try file.load().flatMap { AuthUser(json: $0) }
    } catch {
      logger.error("signed out: \(error)")
    }
    setAuthState(AuthState(user))
  }

  /// Makes `user` the signed-in user (nil: signed out). Cached query results are dropped (they
  /// were read with the old user's permissions) and the socket is reopened with the new token.
  /// Writes the server has not confirmed are rejected with ``InstantClientError/Kind/userChanged``
  /// — each reported through ``InstantClient/rejectedWrites()`` and its `synced()` — unless the
  /// user id stays the same (a guest upgraded by a magic code keeps its id and its writes).
  func changeUser(_ user: AuthUser?) async {
    let old = auth.user
    if case .loading = auth.state {} else if old == user { return }
    do { try auth.file.save(user?.stored) } catch { logger.error("could not store the signed-in user: \(error)") }
    setAuthState(AuthState(user))
    guard old != user else { return }
    await clearResults()
    if old?.id != user?.id { rejectUnconfirmedWrites() }
    await reconnectNow()
  }

  /// The user from `init-ok` (`auth.user`): fresher fields for the same user.
  func receiveInitUser(_ json: JSON?) {
    // An `init-ok` for a socket opened before a sign-in speaks for the previous user, who may
    // have the same id (a guest upgraded in place): it must not undo the sign-in.
    guard let current = auth.user, initRefreshToken == current.refreshToken, let json,
      let user = AuthUser(json: json, refreshToken: current.refreshToken)
    else { return }
    receiveVerifiedUser(user)
  }

  /// The server's current view of the signed-in user (same id and token): stored, no reconnect.
  func receiveVerifiedUser(_ user: AuthUser) {
    guard let current = auth.user, user.id == current.id, user.refreshToken == current.refreshToken, user != current else {
      return
    }
    do { try auth.file.save(user.stored) } catch { logger.error("could not store the signed-in user: \(error)") }
    setAuthState(AuthState(user))
  }

  /// An `init` refused because the refresh token is unknown (revoked, user deleted): sign out,
  /// which reconnects without a token. False if `message` is not that.
  func handleAuthError(_ error: ServerError, originalOp: ClientOp?) -> Bool {
    guard originalOp == .initialize || status != .authenticated,
      error.type == .recordNotFound, error.hint["record-type"]?.stringValue == "app-user"
    else { return false }
    logger.error("the server no longer knows the signed-in user; signing out")
    Task { await self.changeUser(nil) }
    return true
  }

  var refreshToken: String? { auth.user?.refreshToken }

  func watchAuth(_ id: UUID, _ continuation: AsyncStream<AuthState>.Continuation) {
    guard !isShutDown else { return continuation.finish() }
    auth.watchers.add(id, continuation)
    continuation.yield(auth.state)
  }

  func unwatchAuth(_ id: UUID) { auth.watchers.remove(id) }

  private func setAuthState(_ state: AuthState) {
    guard state != auth.state else { return }
    auth.state = state
    auth.watchers.yield(state)
  }

  /// Forgets every server result, in memory and on disk; subscribers keep what they last got
  /// until the new user's results arrive.
  private func clearResults() async {
    queries.forgetResults()
    cacheBatch = [:]
    // A save still asleep now finds nothing to write; one already writing finishes before the
    // delete, so no result of the old user reaches the disk after it.
    cacheSave?.cancel()
    await cacheSave?.value
    do { try storage.deleteQueries() } catch { logger.error("could not delete cached results: \(error)") }
  }

  private func rejectUnconfirmedWrites() {
    let error = InstantClientError(
      .userChanged,
      "the signed-in user changed before the server confirmed this write, so it was not sent again (if it was already on its way, the server may still have applied it)"
    )
    let (confirmed, unconfirmed) = writes.removeAll()
    optimisticAttrsCache = nil
    do { try storage.delete(confirmed + unconfirmed) } catch { logger.error("could not delete writes: \(error)") }
    if !unconfirmed.isEmpty { logger.error("\(unconfirmed.count) unconfirmed writes rejected: the signed-in user changed") }
    for id in unconfirmed {
      finish(id, .failure(error))
      rejectionWatchers.yield(RejectedWrite(id: id, error: error))
    }
    notifyPendingWatchers()
  }
}
