import GRDB
import Logging

extension ClientStorage {
  /// Queued (``later(_:_:_:)``): deletes every cached query result (the signed-in user changed).
  func deleteQueries(logger: Logger) {
    later("delete cached results", logger) { db in try db.execute(sql: "DELETE FROM query") }
  }
}
