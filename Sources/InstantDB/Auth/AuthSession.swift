import Foundation

/// The reactor's auth state: who is signed in, where that is kept, and who watches it.
struct AuthSession {
  var state: AuthState = .loading
  var file = UserFile(storage: .memory, problem: nil)
  var watchers = Watchers<AuthState>()

  var user: AuthUser? { state.user }
}
