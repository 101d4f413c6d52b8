import InstantCore
import InstantPermissions
import Logging
import OrderedCollections

/// The invalidation pass (docs/protocol.md, "Invalidation"): after a commit, every subscribed query the change
/// can affect is re-run and each session hears about the results that changed.
extension AppDatabase {
  /// Evaluates a subscribed query: its serialized `add-query-ok.result` in the session's
  /// ``ResultShape``, or the `validation-failed` error the reference sends for a query it cannot run.
  ///
  /// With rules, the result holds only what `userID` (`nil`: a guest) may view.
  func evaluate(_ q: JSON, for asker: Asker, shape: ResultShape = .joinRows) -> Result<String, ServerError> {
    evaluation(q, for: asker, shape: shape).map(\.text)
  }

  /// ``evaluate(_:for:shape:)``, kept as a ``QueryEvaluation``: serialised, and as a set of
  /// triples, only for the sessions that need it.
  func evaluation(_ q: JSON, for asker: Asker, shape: ResultShape = .joinRows) -> Result<QueryEvaluation, ServerError> {
    do throws(ServerError) {
      let result = try visibleResult(q, for: asker)
      let version = refresh.nextVersion()
      switch shape {
      case .joinRows: return .success(QueryEvaluation(result, version: version))
      case let .tree(inference):
        return .success(QueryEvaluation(text: try tree(of: result, q, inference: inference).serialized(), version: version))
      }
    } catch {
      return .failure(error)
    }
  }

  /// The server's result of `q`: what the rules let `asker` see of it, `$files` with their `url`.
  func visibleResult(_ q: JSON, for asker: Asker) throws(ServerError) -> ServerQueryResult {
    try visibleResult(q, for: asker, rules: rules, recording: false).result
  }

  /// ``visibleResult(_:for:)`` under `rules`, with every rule check it made when `recording`.
  func visibleResult(
    _ q: JSON, for asker: Asker, rules: PermissionRules?, recording: Bool
  ) throws(ServerError) -> (result: ServerQueryResult, checks: [PermissionCheck]) {
    var result: ServerQueryResult
    do {
      result = try store.serverQuery(q)
    } catch {
      throw .validation("query", input: q, [error.message])
    }
    var checks: [PermissionCheck] = []
    if let rules, !asker.isAdmin {
      let params = q["$$ruleParams"]?.objectValue ?? [:]
      let context = ruleContext(asker, now: nowMillis())
      if recording {
        (result.triples, checks) = try rules.visibleTriplesChecked(result.triples, in: store, context: context, ruleParams: params)
      } else {
        result.triples = try rules.visibleTriples(result.triples, in: store, context: context, ruleParams: params)
      }
    }
    presentFiles(&result, q: q, asker: asker)
    return (result, checks)
  }

  /// A server result as the admin SDK reads it, `{namespace: [entity, …]}` with links nested, built
  /// by the client's engine from the result's triples; with `inference` (the reference's
  /// `inference?`), a has-one link is one entity (or `null`) rather than an array.
  func tree(of result: ServerQueryResult, _ q: JSON, inference: Bool) throws(ServerError) -> JSON {
    var attrs = store.attrs
    if inference { attrs.linkIndex = attrs.inferredLinkIndex }
    var visible = TripleStore(attrs: attrs, triples: result.triples, cardinalityInference: inference)
    visible.absentSingularLinkIsNull = true
    do {
      return try visible.query(q).data
    } catch {
      throw .validation("query", input: q, [error.message])
    }
  }

  /// Re-runs every subscribed query that the change can affect (each distinct query once; all of
  /// them when `changed` is everything), and sends each session a `refresh-ok` with the results
  /// that changed — whole, or what changed in them for a session that negotiated
  /// `result-changes` — plus the attrs when they changed or the session is legacy. Nothing is
  /// sent to a session for which nothing changed.
  ///
  /// For a session that receives changes, an entity-local query (``EntityLocalQuery``: one
  /// namespace, no links, no pagination) is not re-run: the entities the commits touched are
  /// evaluated again and the result it was sent is changed in place, so a write costs what it
  /// touched, not what the query holds. Without rules only (with rules, what a user sees of an
  /// entity can depend on others).
  ///
  /// A query that stops evaluating (the data or the attrs changed under it) is logged, and each
  /// session subscribed to it gets one `error` shaped like a failed `add-query` (so clients route
  /// it to that query's subscribers); it stays subscribed, and its next result is sent.
  func invalidate(changed: StoreChange) {
    refresh.addChange(changed)
    refreshDeferred()
  }

  /// The invalidation pass for every commit not refreshed yet (deferred ones included), if any.
  func refreshDeferred() {
    guard !refresh.deferred.isEmpty else { return }
    let started = ContinuousClock.now
    defer { metrics?.refreshed(in: ContinuousClock.now - started) }
    let deferred = refresh.takeDeferred()
    let changed = deferred.namespaces
    let changedTriples = deferred.triples
    var outcomes: [String: Result<QueryEvaluation, ServerError>] = [:]
    // Sessions that were sent the same result get the same changes from it: taken once.
    var changesFrom: [String: ResultChanges?] = [:]
    // Results kept current from what changed, by the version each session was sent: taken once.
    var kept: [String: (changes: ResultChanges?, sent: SessionRecord.SentResult)] = [:]
    let attrsVersion = self.attrsVersion
    for index in sessions.values.indices {
      var record = sessions.values[index]
      let attrsChanged = record.attrsVersionSent != attrsVersion
      guard !record.queries.isEmpty || attrsChanged else { continue }
      var computations: [ServerMessage.Computation] = []
      var failures: [ServerMessage] = []
      // With rules, a result depends on who asks; a view rule that follows links can change
      // with any namespace.
      // Without rules only `$files` differs, between the admin and everyone else.
      let userKey =
        (rules == nil ? (record.asker.isAdmin ? "\u{0}admin" : "") : "\u{0}" + record.asker.key) + record.resultShape.key
      let everything = rules?.viewReadsLinks == true
      for (key, subscription) in record.queries {
        if let changed, !everything, !footprint(key, subscription.q).mayChange(changed) { continue }
        if record.receivesChanges, rules == nil || record.asker.isAdmin, let changedTriples, let sent = subscription.sent,
          let query = footprint(key, subscription.q).entityLocal
        {
          let keptKey = key + userKey + "\u{0}" + String(sent.version)
          if let step = kept[keptKey] ?? keep(query, sent, since: changedTriples) {
            kept[keptKey] = step
            if let changes = step.changes {
              computations.append(ServerMessage.Computation(q: .raw(subscription.qText), content: .changes(changes)))
            }
            record.queries[key]!.sent = step.sent
            continue
          }
        }
        let outcome = outcomes[key + userKey] ?? rerun(subscription.q, for: record)
        outcomes[key + userKey] = outcome
        switch outcome {
        case let .success(evaluation) where record.receivesChanges:
          let now = evaluation.sent
          // A result kept current since (`isCurrent` false) no longer holds what this session
          // was sent: it gets the whole result.
          if let sent = subscription.sent, sent.isCurrent {
            let changesKey = key + userKey + "\u{0}" + String(sent.version)
            let changes =
              changesFrom[changesKey]
              ?? ResultChanges.between(
                sent.triples.set, now.triples.set, oldPageInfo: sent.pageInfo, newPageInfo: now.pageInfo)
            changesFrom[changesKey] = changes
            guard let changes else { continue }
            computations.append(ServerMessage.Computation(q: .raw(subscription.qText), content: .changes(changes)))
          } else {
            // After a failure the client holds no result to change: the whole one.
            computations.append(ServerMessage.Computation(q: .raw(subscription.qText), result: .raw(evaluation.text)))
          }
          record.queries[key]!.sent = now
        case let .success(evaluation):
          let result = evaluation.text
          guard result != subscription.lastResult else { continue }
          record.queries[key]!.lastResult = result
          computations.append(ServerMessage.Computation(q: .raw(subscription.qText), result: .raw(result)))
        case let .failure(error):
          guard subscription.lastResult != nil || subscription.sent != nil else { continue }
          record.queries[key]!.lastResult = nil
          record.queries[key]!.sent = nil
          let originalEvent = OriginalEvent(op: .addQuery, q: subscription.q, sessionID: record.id)
          failures.append(.error(error, clientEventID: .none, originalEvent: originalEvent))
        }
      }
      if !computations.isEmpty || attrsChanged {
        let attrs = attrsChanged || !record.features.skipAttrs ? WireFragment.raw(attrsText) : nil
        record.attrsVersionSent = attrsVersion
        record.sink.send(.refreshOK(processedTxID: processedTxID, computations: computations, attrs: attrs))
      }
      for failure in failures { record.sink.send(failure) }
      sessions.values[index] = record
    }
  }

  /// The result `sent` names, kept current from the triples `changed` since it was made: what
  /// changed in it (`nil`: nothing), and the result as sent now. The triples change in place, for
  /// every session sent the same result (each takes the same step, by version). `nil` when they
  /// moved on since this session was sent them, or the query fails: it is then evaluated whole.
  private func keep(
    _ query: EntityLocalQuery, _ sent: SessionRecord.SentResult, since changed: [Triple]
  ) -> (changes: ResultChanges?, sent: SessionRecord.SentResult)? {
    guard sent.isCurrent,
      let (removed, added) = try? query.changes(in: store, previous: sent.triples.set, since: changed)
    else { return nil }
    guard !removed.isEmpty || !added.isEmpty else { return (nil, sent) }
    sent.triples.set.subtract(removed)
    sent.triples.set.formUnion(added)
    let version = refresh.nextVersion(kept: true)
    sent.triples.version = version
    let changes = ResultChanges(removed: removed, added: added, pageInfo: nil, count: sent.triples.set.count)
    return (changes, SessionRecord.SentResult(triples: sent.triples, pageInfo: nil, version: version))
  }

  /// ``evaluate(_:for:peer:)`` for the invalidation pass, logging a query that no longer runs.
  private func rerun(_ q: JSON, for record: SessionRecord) -> Result<QueryEvaluation, ServerError> {
    let outcome = evaluation(q, for: record.asker, shape: record.resultShape)
    if case let .failure(error) = outcome {
      logger.warning(
        "a subscribed query failed",
        metadata: ["query": "\(q.serialized())", "tx_id": "\(processedTxID)", "error": "\(error.message)"])
    }
    return outcome
  }

  /// The query's footprint, computed once per attrs version.
  private func footprint(_ key: String, _ q: JSON) -> QueryFootprint {
    refresh.footprint(key, q, attrs: store.attrs)
  }
}

/// What a commit changed, as the invalidation pass reads it.
struct StoreChange: Sendable {
  /// The namespaces whose triples changed; `nil`: any query may have changed (the attrs did).
  var namespaces: Set<String>?
  /// The triples added and removed; `nil` when not known.
  var triples: [Triple]?

  static let everything = StoreChange(namespaces: nil, triples: nil)
}

/// What commits not yet refreshed changed; `nil` namespaces: everything (the attrs changed).
struct DeferredChanges {
  private(set) var isEmpty = true
  private(set) var namespaces: Set<String>? = []
  /// Every triple they added or removed, while there are at most ``maxTriples`` (past that, a
  /// whole evaluation is cheaper than following them); `nil` beyond, or when not known.
  private(set) var triples: [Triple]? = []
  static let maxTriples = 4096

  mutating func add(_ change: StoreChange) {
    isEmpty = false
    if let added = change.triples, let held = triples?.count, held + added.count <= Self.maxTriples {
      triples!.append(contentsOf: added)
    } else {
      triples = nil
    }
    guard let changed = change.namespaces else { return namespaces = nil }
    namespaces?.formUnion(changed)
  }
}
