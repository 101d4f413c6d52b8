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
    performNow(auth.loaded(user))
  }

  /// Makes `user` the signed-in user (nil: signed out); see ``AuthSession/change(to:)``. Rejected
  /// writes are reported through ``InstantClient/rejectedWrites()`` and their `synced()`.
  func changeUser(_ user: AuthUser?) async {
    for action in auth.change(to: user) {
      switch action {
      case .forgetResults: await clearResults()
      case .rejectUnconfirmedWrites: rejectUnconfirmedWrites()
      case .reconnect: await reconnectNow()
      case .store, .publish: performNow([action])
      }
    }
  }

  /// The user from `init-ok` (`auth.user`).
  func receiveInitUser(_ json: JSON?) {
    performNow(auth.initUser(json, initToken: initRefreshToken))
  }

  /// The server's current view of the signed-in user: stored, no reconnect.
  func receiveVerifiedUser(_ user: AuthUser) {
    performNow(auth.verified(user))
  }

  /// Performs the actions that need no waiting: storing the user and telling the watchers (the
  /// only ones ``AuthSession`` returns outside ``AuthSession/change(to:)``).
  private func performNow(_ actions: [AuthSession.Action]) {
    for action in actions {
      switch action {
      case let .store(user):
        do { try auth.file.save(user?.stored) } catch { logger.error("could not store the signed-in user: \(error)") }
      case let .publish(state):
        auth.watchers.yield(state)
      case .forgetResults, .rejectUnconfirmedWrites, .reconnect:
        logger.error("an auth change that needs the socket reached a path that cannot wait; use changeUser")
      }
    }
  }

  /// An `init` refused because the refresh token is unknown (revoked, user deleted): sign out,
  /// which reconnects without a token. False if `error` is not that.
  func handleAuthError(_ error: ServerError, originalOp: ClientOp?) -> Bool {
    guard AuthSession.refusesUser(error, originalOp: originalOp, isAuthenticated: status == .authenticated) else {
      return false
    }
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


  /// Forgets every server result, in memory and on disk; subscribers keep what they last got
  /// until the new user's results arrive.
  private func clearResults() async {
    queries.forgetResults()
    cacheSaves.forget()
    // A save still asleep now finds nothing to write; one already writing finishes before the
    // delete, so no result of the old user reaches the disk after it.
    cacheSaves.task?.cancel()
    await cacheSaves.task?.value
    storage.deleteQueries(logger: logger)
  }

  private func rejectUnconfirmedWrites() {
    let error = InstantClientError(
      .userChanged,
      "the signed-in user changed before the server confirmed this write, so it was not sent again (if it was already on its way, the server may still have applied it)"
    )
    let (confirmed, unconfirmed) = writes.removeAll()
    optimisticAttrsCache = nil
    storage.delete(confirmed + unconfirmed, logger: logger)
    if !unconfirmed.isEmpty { logger.error("\(unconfirmed.count) unconfirmed writes rejected: the signed-in user changed") }
    for id in unconfirmed {
      finish(id, .failure(error))
      rejectionWatchers.yield(RejectedWrite(id: id, error: error))
    }
    notifyPendingWatchers()
  }
}
