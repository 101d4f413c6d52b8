/// A form's `$` options, read once by one parser for both the client evaluator and the server
/// (`serverQuery`), so a query means the same thing on both sides.
///
/// The reading is the reference client's, JavaScript truthiness included: the order field is
/// `Object.keys(order)[0]`, a direction other than `"asc"`/`"desc"` is neither, and the limit is
/// `limit || first || last`. The server validates options first (``ServerQueryValidator``), so
/// on the server these quirks never come into play.
struct QueryOptions {
  /// The keys that give a form's limit, in the order the reference tries them.
  static let limitKeys = ["limit", "first", "last"]
  /// The keys that make a top-level form paginated on the server.
  static let paginationKeys = limitKeys + ["offset", "before", "after"]

  /// The order field, when `order` is given.
  var orderLabel: String?
  /// `direction === "asc"`, or no direction at all.
  var ascending = true
  /// `direction === "desc"`.
  var descending = false
  /// `limit || first || last`, and which of them it is.
  var limit: JSON?
  var limitKey: String?
  /// No `offset`, `before` or `after`: the query starts at the beginning of its order.
  var isLeading: Bool
  /// Any of ``paginationKeys`` present (the server then reports page info).
  var paginates: Bool

  init(_ options: JSON?) {
    func option(_ key: String) -> JSON? { JSObjects.get(options, key) }
    isLeading = !["offset", "before", "after"].contains { JSValue(option($0)).isTruthy }
    paginates = Self.paginationKeys.contains { option($0) != nil }
    if let order = option("order"), JSValue(order).isTruthy {
      let firstKey = JSObjects.keys(order).first
      orderLabel = firstKey
      let direction = JSValue(JSObjects.get(order, firstKey ?? "undefined"))
      if direction.isTruthy {
        ascending = direction.strictEquals(.string("asc"))
        descending = direction.strictEquals(.string("desc"))
      }
    }
    for key in Self.limitKeys {
      limit = option(key)
      limitKey = key
      if JSValue(limit).isTruthy { break }
    }
  }
}
