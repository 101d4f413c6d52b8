import Dispatch
import GRDB
import Logging

/// Moves committed pages from the WAL into the database file on a timer, from its own SQLite
/// connection and its own dispatch queue.
///
/// The serving connection runs with `wal_autocheckpoint = 0`, so a commit never pays for a
/// checkpoint (and the fsyncs that `synchronous = NORMAL` does around it) while a client waits
/// for its `transact-ok`. Checkpoints are `PASSIVE`: they never block the writer, and a WAL whose
/// frames were all copied is reused from its start by the next commit, so it does not grow.
/// Durability does not depend on them: committed transactions are in the WAL either way.
final class WALCheckpointer: Sendable {
  private let connection: DatabaseQueue
  /// Set once in `init` and only cancelled in `deinit`; Dispatch sources are thread-safe to cancel,
  /// so sharing the reference is safe although the protocol is not marked `Sendable`.
  private nonisolated(unsafe) let timer: any DispatchSourceTimer

  init(path: String, interval: DispatchTimeInterval = .seconds(1), logger: Logger) throws {
    var config = Configuration()
    config.journalMode = .wal
    config.busyMode = .timeout(1)
    let connection = try DatabaseQueue(path: path, configuration: config)
    self.connection = connection
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "instant-local.wal-checkpoint"))
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler {
      do {
        try connection.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
      } catch {
        logger.warning("WAL checkpoint failed (committed data stays in the WAL): \(error)")
      }
    }
    timer.resume()
    self.timer = timer
  }

  deinit {
    timer.cancel()
  }
}
