import Foundation
import InstantCore
import InstantPermissions
import Logging
import OrderedCollections

/// One app's live state: its triple store (loaded from SQLite on first use), the last tx-id its
/// results reflect, its connected sessions with their subscriptions, and its rooms.
///
/// Everything that reads or changes an app goes through this actor, so a query's
/// `processed-tx-id` always matches the state it was evaluated against, a writer's
/// `transact-ok` is queued before any `refresh-ok` its transaction causes, and each session's
/// messages leave in the order they were produced.
///
/// The actor orders; its parts keep their own state and rules, each a value with its own tests
/// or readers: ``RoomMembers`` (who is in each room), ``RefreshState`` (what the invalidation pass
/// keeps between commits), ``MagicCodes``, ``RefreshTokens``, ``IndexingJobs``, and
/// ``LocalStorage`` (the SQLite file), the one a PostgreSQL backend replaces.
actor AppDatabase {
  let appID: String
  let title: String
  let storage: LocalStorage
  let logger: Logger
  var store: TripleStore
  /// The tx-id every current result reflects (docs/protocol.md, "Invalidation").
  var processedTxID: Int
  /// Bumped whenever the app's attrs change.
  var attrsVersion = 0
  private var attrsTextCache: (version: Int, text: String)?
  var sessions: OrderedDictionary<String, SessionRecord> = [:]
  /// Who is in each room, with what presence.
  var rooms = RoomMembers()
  /// What the invalidation pass keeps between commits.
  var refresh = RefreshState()
  /// Who each refresh token signs in (``RefreshTokens``).
  var refreshTokens: RefreshTokens
  /// The magic codes sent and not yet used, their limits, and in development the codes as sent
  /// (``MagicCodes``).
  var magicCodes: MagicCodes
  /// Schema pushes' indexing jobs (done at once here; kept for the CLI to read back).
  var schemaJobs = IndexingJobs()
  /// The app's permission rules; `nil` allows everything (as an app without rules on InstantDB).
  private(set) var rules: PermissionRules?
  /// The server's `$files` blobs (docs/files.md).
  let files: LocalFiles?
  /// Where commits, sessions and refresh passes are counted.
  let metrics: ServerMetrics?
  /// The server's clock: transaction stamps, magic-code expiry.
  let clock: ServerClock

  init(
    appID: String, snapshot: LocalStorage.AppSnapshot, processedTxID: Int, storage: LocalStorage,
    rules: PermissionRules? = nil, files: LocalFiles? = nil, magicCodeLimits: MagicCodes.Limits = .init(),
    keepsPlainCodes: Bool = true, metrics: ServerMetrics? = nil, clock: ServerClock, logger: Logger
  ) {
    self.appID = appID
    self.clock = clock
    self.metrics = metrics
    self.magicCodes = MagicCodes(limits: magicCodeLimits, keepsPlainCodes: keepsPlainCodes)
    self.files = files
    self.rules = rules
    self.title = snapshot.title
    self.storage = storage
    self.logger = logger
    self.processedTxID = processedTxID
    self.refreshTokens = RefreshTokens(snapshot.refreshTokens)
    self.store = Self.makeStore(snapshot)
  }

  static func makeStore(_ snapshot: LocalStorage.AppSnapshot) -> TripleStore {
    TripleStore(attrs: AttrStore(SystemCatalog.attrs + snapshot.attrs), triples: snapshot.triples)
  }

  /// Now on the server's clock, in milliseconds since 1970, as the store stamps.
  func nowMillis() -> Double { clock.nowMillis }

  /// All attrs, serialized once per attrs version.
  var attrsText: String {
    if let cache = attrsTextCache, cache.version == attrsVersion { return cache.text }
    let text = store.attrs.json.serialized()
    attrsTextCache = (attrsVersion, text)
    return text
  }

  // MARK: Sessions

  /// Handles `init`: checks the refresh token, registers the session and queues `init-ok`.
  func initSession(
    id: String, sink: SessionSink, features: SessionFeatures, peer: SessionPeer = SessionPeer(), refreshToken: String?,
    isAdmin: Bool = false, clientEventID: ClientEventID
  ) throws(ServerError) {
    var userID: String?
    if let refreshToken {
      guard let uid = tokenOwner(refreshToken),
        store.hasEntity(uid, etype: "$users")
      else {
        // The token is not echoed (the reference's `args` hold it): error frames get logged.
        throw .recordNotFound("app-user", args: [["app-id": .string(appID)]])
      }
      userID = uid
    }
    sessions[id] = SessionRecord(
      id: id, sink: sink, features: features, asker: Asker(isAdmin: isAdmin, userID: userID, peer: peer),
      attrsVersionSent: attrsVersion)
    metrics?.sessionOpened()
    let user = userID.flatMap { userObject($0, refreshToken: nil) } ?? .null
    let auth: JSON = ["app": appJSON, "user": user, "admin?": .bool(isAdmin)]
    sink.send(
      .initOK(sessionID: id, clientEventID: clientEventID, auth: auth, appStatus: "active", attrs: .raw(attrsText)))
  }

  /// The app row sent in `init-ok.auth.app`.
  var appJSON: JSON { ["id": .string(appID), "title": .string(title)] }

  /// What this app holds now: its sessions, their queries and their unread bytes.
  func metricsSnapshot() -> ServerMetrics.Snapshot {
    var now = ServerMetrics.Snapshot(sessions: sessions.count)
    for record in sessions.values {
      now.queries += record.queries.count
      now.queuedBytes += record.sink.queuedBytes
    }
    return now
  }

  /// Forgets a closed session: its subscriptions go, and it leaves every room.
  func closeSession(_ id: String) {
    guard let record = sessions.removeValue(forKey: id) else { return }
    for roomID in record.rooms { removeMember(id, from: roomID) }
  }

  // MARK: Queries

  /// Handles `add-query`.
  func addQuery(session id: String, q: JSON?, clientEventID: ClientEventID) throws(ServerError) {
    guard var record = sessions[id] else { return }
    guard let q, q != .null else {
      throw .validation("add-query", input: ["q": .null], ["Query can not be null."])
    }
    let key = q.canonicalString
    let qText = q.serialized()
    if record.queries[key] != nil {
      record.sink.send(.addQueryExists(q: .raw(qText), clientEventID: clientEventID))
      return
    }
    guard case .object = q else {
      throw .validation("query", input: q, ["Query must be an object of namespaces."])
    }
    let evaluation = try evaluation(q, for: record.asker, shape: record.resultShape).get()
    let resultText = evaluation.text
    record.queries[key] = SessionRecord.Subscription(
      q: q, qText: qText, lastResult: record.receivesChanges ? nil : resultText,
      sent: record.receivesChanges ? evaluation.sent : nil)
    sessions[id] = record
    record.sink.send(
      .addQueryOK(q: .raw(qText), result: .raw(resultText), processedTxID: processedTxID, clientEventID: clientEventID))
  }

  /// Handles `remove-query` (no error when the query was not subscribed).
  func removeQuery(session id: String, q: JSON?, clientEventID: ClientEventID) {
    guard sessions[id] != nil else { return }
    let q = q ?? .null
    sessions[id]!.queries.removeValue(forKey: q.canonicalString)
    sessions[id]!.sink.send(.removeQueryOK(q: .json(q), clientEventID: clientEventID))
  }

  // MARK: Transactions

  /// Handles `transact`: applies the steps atomically, commits them to SQLite, queues
  /// `transact-ok`, then runs the invalidation pass, or, with `deferringRefresh`, leaves it to
  /// the next pass (``refreshDeferred()`` or any later one): a session's burst of transactions
  /// then costs one re-run of each affected query, as the reference server coalesces a
  /// session's pending refreshes.
  func transact(session id: String, txSteps: JSON?, clientEventID: ClientEventID, deferringRefresh: Bool = false)
    throws(ServerError)
  {
    guard let sink = sessions[id]?.sink else { return }
    guard let txSteps, case .array = txSteps else {
      throw .validation("tx-steps", input: txSteps ?? .null, ["tx-steps must be an array of steps."])
    }
    let (txID, changed) = try commit(txSteps, systemWrite: false, by: sessions[id]?.asker ?? .user(nil))
    sink.send(.transactOK(txID: txID, clientEventID: clientEventID))
    if deferringRefresh {
      refresh.addChange(changed)
    } else {
      invalidate(changed: changed)
    }
  }

  /// Applies `txSteps` to the store and commits the changes; on any failure nothing changes.
  /// Returns the tx-id and the namespaces whose triples changed (nil when the attrs changed, which
  /// affects every query) and its triples. The caller sends its reply, then calls ``invalidate(changed:)``.
  ///
  /// A user's or guest's writes go through the app's rules; an admin's (the server's own) do not.
  func commit(
    _ txSteps: JSON, systemWrite: Bool, by asker: Asker = .admin, extra: (@Sendable (GRDBDatabase) throws -> Void)? = nil
  ) throws(ServerError) -> (txID: Int, changed: StoreChange) {
    do {
      let committed = try checkAndPersist(txSteps, systemWrite: systemWrite, by: asker, extra: extra)
      metrics?.transaction(committed: true)
      return committed
    } catch {
      metrics?.transaction(committed: false)
      throw error
    }
  }

  /// ``commit(_:systemWrite:by:extra:)`` of steps the server builds itself.
  func commit(
    _ steps: [TxStep], systemWrite: Bool, by asker: Asker = .admin, extra: (@Sendable (GRDBDatabase) throws -> Void)? = nil
  ) throws(ServerError) -> (txID: Int, changed: StoreChange) {
    try commit(.array(steps.map(\.json)), systemWrite: systemWrite, by: asker, extra: extra)
  }

  private func checkAndPersist(
    _ txSteps: JSON, systemWrite: Bool, by asker: Asker, extra: (@Sendable (GRDBDatabase) throws -> Void)?
  ) throws(ServerError) -> (txID: Int, changed: StoreChange) {
    let now = nowMillis()
    let changes = try apply(txSteps, now: now, systemWrite: systemWrite)
    if let rules, !asker.isAdmin,
      let refusal = rules.check(changes, in: store, context: ruleContext(asker, now: now))
    {
      store.revert(changes)
      throw refusal
    }
    if let refusal = refuseFilesWithoutRules(changes, by: asker) {
      store.revert(changes)
      throw refusal
    }
    return try persist(changes, now: now, extra: extra)
  }

  /// Applies `txSteps` to the store, unchecked and not yet saved: the caller checks the changes,
  /// then ``persist(_:now:extra:)``s or reverts them.
  func apply(_ txSteps: JSON, now: Double, systemWrite: Bool) throws(ServerError) -> ServerTransactionChanges {
    do {
      return try store.applyServerTransaction(txSteps, now: now, systemWrite: systemWrite)
    } catch {
      throw error.serverError
    }
  }

  /// Saves changes applied to the store (reverting them if that fails): their tx-id, and what
  /// they changed (everything when the attrs changed).
  func persist(
    _ changes: ServerTransactionChanges, now: Double, extra: (@Sendable (GRDBDatabase) throws -> Void)? = nil
  ) throws(ServerError) -> (txID: Int, changed: StoreChange) {
    let txID: Int
    do {
      txID = try storage.commit(appID: appID, changes: changes, now: now, extra: extra)
    } catch {
      logger.error("a transaction could not be saved and was rolled back", metadata: ["error": "\(error)"])
      store.revert(changes)
      throw .serverFault("The transaction could not be saved: \(error)")
    }
    processedTxID = txID
    if changes.attrsChanged {
      attrsVersion += 1
      refresh.forgetFootprints()
      return (txID, .everything)
    }
    var changed: Set<String> = []
    for triple in changes.added + changes.removed {
      guard let attr = store.attrs[triple.attr] else { return (txID, .everything) }
      changed.insert(attr.forwardIdentity.etype)
      if attr.isRef, let reverse = attr.reverseIdentity { changed.insert(reverse.etype) }
    }
    return (txID, StoreChange(namespaces: changed, triples: changes.added + changes.removed))
  }

  // MARK: Permissions

  /// Replaces the app's rules (`nil`: everything allowed) and refreshes every subscribed query,
  /// since what each session may see can change with them.
  func setRules(_ rules: PermissionRules?) {
    self.rules = rules
    refresh.forgetFootprints()
    invalidate(changed: .everything)
  }

  /// What rules know of a request: the asker's `$users` entity, and where it comes from.
  func ruleContext(_ asker: Asker, now: Double) -> RuleContext {
    let peer = asker.peer
    let user = asker.userID.flatMap { id in store.attributes(of: id, etype: "$users").map { $0.merging(["id": .string(id)]) { old, _ in old } } }
    return RuleContext(user: user, time: now, ip: peer.ip, origin: peer.origin)
  }

  // MARK: Schema

  /// The app's schema in the shape `GET /dash/apps/{id}/schema/pull` returns
  /// (docs/protocol.md, "Schema pull"): `{schema: {refs, blobs}, attrs, app-title}`.
  func schemaPull() -> JSON {
    var blobs: JSONObject = [:]
    var refs: JSONObject = [:]
    for attr in store.attrs.attrs.values {
      let f = attr.forwardIdentity
      if attr.isRef, let r = attr.reverseIdentity {
        let key = "[\"\(f.etype)\" \"\(f.label)\" \"\(r.etype)\" \"\(r.label)\"]"
        refs[key] = .object(attr.json)
      } else {
        var byLabel = blobs[f.etype]?.objectValue ?? [:]
        byLabel[f.label] = .object(attr.json)
        blobs[f.etype] = .object(byLabel)
      }
    }
    return ["schema": ["refs": .object(refs), "blobs": .object(blobs)], "attrs": store.attrs.json, "app-title": .string(title)]
  }

  /// `GET /admin/schema` (experimental on the reference): `{schema: {refs, blobs}}`, the refs
  /// keyed `etype-label-target-reverse` rather than by an EDN vector.
  func adminSchema() -> JSON {
    var refs: JSONObject = [:]
    for attr in store.attrs.attrs.values where attr.isRef {
      guard let r = attr.reverseIdentity else { continue }
      let f = attr.forwardIdentity
      refs[[f.etype, f.label, r.etype, r.label].joined(separator: "-")] = .object(attr.json)
    }
    return ["schema": ["refs": .object(refs), "blobs": schemaPull()["schema"]?["blobs"] ?? [:]]]
  }
}
