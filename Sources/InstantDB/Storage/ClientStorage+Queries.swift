import GRDB

extension ClientStorage {
  /// Deletes every cached query result (the signed-in user changed).
  func deleteQueries() throws {
    try db.write { db in try db.execute(sql: "DELETE FROM query") }
  }
}
