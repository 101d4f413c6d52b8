import Foundation
import IdentifiedCollections
import InstantCore
import InstantDB
import Logging

/// Decodes a collection key's results into entities, decoding again only the rows that changed.
/// Decoding is the part of a delivery that grows with the rows, so it has a lock of its own: the
/// key's lock (and an edit's `save` on the main thread) never waits for it.
final class RowDecoder<Entity: EntityIdentifiable & Equatable>: @unchecked Sendable {
  typealias Collection = IdentifiedArrayOf<Entity>

  let namespace: String
  /// The last result's rows and the value decoded from them, row for row (`nil` after a row failed
  /// to decode); read and written under `lock` only, which makes `@unchecked Sendable` sound.
  private var decoded: (rows: [JSON], value: Collection)?
  private let lock = NSLock()
  /// Where a row that does not decode is reported: the client's logger.
  private let logger: Logger

  init(namespace: String, logger: Logger) {
    self.namespace = namespace
    self.logger = logger
  }

  /// `result`'s entities. One whose JSON is the same as in the result decoded before is not decoded
  /// again; when the result holds the same entities in the same order as before (perhaps with more
  /// after them), the value decoded before is patched: only the changed rows cost more than a
  /// comparison.
  func decode(_ result: QueryResult) -> (Collection, EntityDecodingError?) {
    lock.withLock {
      let rows = result.data[namespace]?.arrayValue ?? []
      let decoder = JSONValueDecoder()
      if let decoded, let value = Self.patch(decoded, with: rows, decoder) {
        self.decoded = (rows, value)
        return (value, nil)
      }
      var value = Collection()
      var failures: [(id: String, error: any Error)] = []
      // A buffer of its own even when empty: see ``KeyCollection/sameStorage(_:_:)``.
      value.reserveCapacity(max(rows.count, 1))
      for (index, json) in rows.enumerated() {
        let id = json["id"]?.stringValue ?? "#\(index)"
        if let decoded, let known = decoded.value.index(id: id), decoded.rows[known] == json {
          value.updateOrAppend(decoded.value[known])
          continue
        }
        do {
          value.updateOrAppend(try decoder.decode(Entity.self, from: json))
        } catch {
          failures.append((id, error))
        }
      }
      // Rows and entities line up only when every row decoded (and no id repeats).
      decoded = failures.isEmpty && value.count == rows.count ? (rows, value) : nil
      let failure = failures.isEmpty ? nil : EntityDecodingError(namespace: namespace, errors: failures)
      if let failure { logger.error("\(failure)") }
      return (value, failure)
    }
  }

  /// `decoded.value` with the rows of `rows` that differ from `decoded.rows` decoded again, and
  /// rows after them appended; `nil` when an entity moved, left or came in between, or a row does
  /// not decode (the whole result is then decoded).
  private static func patch(
    _ decoded: (rows: [JSON], value: Collection), with rows: [JSON], _ decoder: JSONValueDecoder
  ) -> Collection? {
    guard rows.count >= decoded.rows.count else { return nil }
    var value = decoded.value
    for (index, json) in rows.enumerated() {
      if index < decoded.rows.count {
        guard json != decoded.rows[index] else { continue }
        guard json["id"]?.stringValue == decoded.value[index].id,
          let entity = try? decoder.decode(Entity.self, from: json)
        else { return nil }
        value[id: entity.id] = entity
      } else {
        guard let entity = try? decoder.decode(Entity.self, from: json), value.append(entity).inserted else { return nil }
      }
    }
    return value
  }
}
