/// The query results waiting to be saved for offline start, and the one save scheduled for them:
/// a busy query costs one serialisation a second rather than one per refresh. The reactor owns
/// it and reads each result only when the save runs (holding it meanwhile would share the query's
/// store, and its next change would copy all of it).
struct CacheSaves {
  /// The queries whose results changed since the last save.
  private(set) var keys: Set<String> = []
  /// The scheduled save; a shutdown or a sign-out cancels it (cutting its wait short) and waits
  /// for it, so no save runs after them.
  private(set) var task: Task<Void, Never>?
  private var isScheduled = false

  /// Notes that `key`'s result changed. True when no save is scheduled: the caller schedules one
  /// and hands it to ``scheduled(_:)``.
  mutating func note(_ key: String) -> Bool {
    keys.insert(key)
    guard !isScheduled else { return false }
    isScheduled = true
    return true
  }

  mutating func scheduled(_ task: Task<Void, Never>) { self.task = task }

  /// The keys noted since the last save; the next note schedules a new save.
  mutating func take() -> Set<String> {
    defer {
      keys = []
      isScheduled = false
    }
    return keys
  }

  /// Forgets the keys noted (the results they name are gone); a scheduled save finds none.
  mutating func forget() { keys = [] }
}
