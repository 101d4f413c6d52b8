import InstantCore

/// One evaluation of a subscribed query for one asker, shared by every session that asks the same
/// in an invalidation pass: serialised once for the sessions that get whole results, and made a
/// set of triples once for those that get what changed.
///
/// Used only on its ``AppDatabase``'s actor, which made it.
final class QueryEvaluation {
  private let result: ServerQueryResult?
  /// Tells this evaluation's result apart from every other the app made: sessions sent the same
  /// version hold the same result, so the changes from it are taken once.
  let version: Int
  private var _text: String?
  private var _sent: SessionRecord.SentResult?

  /// A join-rows result.
  init(_ result: ServerQueryResult, version: Int) {
    self.result = result
    self.version = version
  }

  /// A result already serialised (a tree, for the admin SDK).
  init(text: String, version: Int) {
    result = nil
    self.version = version
    _text = text
  }

  /// The serialised result: `add-query-ok.result` or `instaql-result`.
  var text: String {
    if let _text { return _text }
    let text = result?.instaqlResult.serialized() ?? "null"
    _text = text
    return text
  }

  /// The result as a session that receives changes keeps it.
  var sent: SessionRecord.SentResult {
    if let _sent { return _sent }
    let sent = SessionRecord.SentResult(
      triples: SessionRecord.SentTriples(Set(result?.triples ?? []), version: version), pageInfo: result?.pageInfo,
      version: version)
    _sent = sent
    return sent
  }
}
