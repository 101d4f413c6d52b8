import Foundation

/// Seams for tests that force the order of a subscription's subscribe and unsubscribe (no sleeps
/// decide the outcome): each runs on the task doing the work. Unset in apps.
final class QuerySubscriptionHooks: @unchecked Sendable {
  // Read and written under `lock` only.
  private let lock = NSLock()
  private var _beforeSubscribe: (@Sendable () async -> Void)?
  private var _beforeUnsubscribe: (@Sendable () -> Void)?
  private var _subscribed = 0
  private var _unsubscribed = 0

  /// Awaited before an iteration's subscribe reaches the reactor.
  var beforeSubscribe: (@Sendable () async -> Void)? {
    get { lock.withLock { _beforeSubscribe } }
    set { lock.withLock { _beforeSubscribe = newValue } }
  }

  /// How many subscribes and unsubscribes the reactor has finished.
  var finished: (subscribes: Int, unsubscribes: Int) { lock.withLock { (_subscribed, _unsubscribed) } }

  func subscribeFinished() { lock.withLock { _subscribed += 1 } }
  func unsubscribeFinished() { lock.withLock { _unsubscribed += 1 } }

  /// Called before an ended iteration's unsubscribe reaches the reactor.
  var beforeUnsubscribe: (@Sendable () -> Void)? {
    get { lock.withLock { _beforeUnsubscribe } }
    set { lock.withLock { _beforeUnsubscribe = newValue } }
  }
}
