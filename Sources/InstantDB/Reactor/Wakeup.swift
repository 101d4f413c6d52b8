/// The connection loop's one pause: what ends it early. Each pause has its own number, so the
/// timer of an earlier pause cannot end a later one.
struct Wakeup {
  private var waiter: (id: Int, continuation: CheckedContinuation<Void, Never>)?
  private var last = 0

  /// The number of the next pause.
  mutating func nextID() -> Int {
    last += 1
    return last
  }

  /// Pause `id` waits on `continuation`.
  mutating func wait(_ id: Int, _ continuation: CheckedContinuation<Void, Never>) { waiter = (id, continuation) }

  /// The pause to end for a wake aimed at pause `id` (at whichever waits, when `nil`), if that
  /// one is waiting; it no longer is.
  mutating func take(_ id: Int?) -> CheckedContinuation<Void, Never>? {
    guard let current = waiter, id == nil || id == current.id else { return nil }
    waiter = nil
    return current.continuation
  }
}
