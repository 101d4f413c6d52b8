import Clocks
import InstantCore

/// A write on its way to the server: stored until every query has seen it.
struct PendingMutation: Sendable, Equatable {
  /// The `client-event-id` it is sent with, every time.
  let id: String
  /// 1 + the highest order of the writes pending when it was made.
  let order: Int
  /// Epoch milliseconds.
  let created: Double
  var steps: [JSON]
  /// Set by `transact-ok`.
  var txID: Int?
  /// When `transact-ok` arrived on this run of the client (not stored: a write acknowledged
  /// before a restart waits for the queries' results, which reconnecting brings).
  var confirmed: AnyClock<Duration>.Instant?
  /// Whether it was sent on the current socket (reset on every reconnect).
  var sentOnThisSocket = false
  /// Whether it was ever sent (saved): then the server may have committed it even though no
  /// `transact-ok` arrived.
  var wasSent: Bool

  init(id: String, order: Int, created: Double, steps: [JSON], txID: Int? = nil, wasSent: Bool = false) {
    self.id = id
    self.order = order
    self.created = created
    self.steps = steps
    self.txID = txID
    self.wasSent = wasSent
  }

  /// The `transact` frame, shaped as the reference client sends it.
  ///
  /// The server does not deduplicate re-sent transactions (docs/protocol.md, "Re-sent writes"): a write whose earlier
  /// send may have committed (`resend`) goes without its `create` modes, so that finding its own
  /// entity already there does not make the server refuse it. Everything else in it is idempotent.
  /// `steps` replaces the write's own (a re-send without the steps later writes undo).
  func frame(resend: Bool, steps: [JSON]? = nil) -> ClientMessage {
    let steps = steps ?? self.steps
    return ClientMessage(
      clientEventID: id,
      .transact(txSteps: .array(resend ? steps.map(Self.withoutCreateMode) : steps), created: created, order: order))
  }

  static func withoutCreateMode(_ step: JSON) -> JSON {
    guard case var .array(parts) = step, parts.count == 5, parts[4]["mode"] == "create" else { return step }
    parts.removeLast()
    return .array(parts)
  }

  /// Whether a query result that reflects transactions up to `processedTxID` still needs this
  /// write applied on top.
  func applies(over processedTxID: Int?) -> Bool {
    guard let txID else { return true }
    guard let processedTxID else { return true }
    return txID > processedTxID
  }

  var publicState: PendingWrite.State {
    if txID != nil { return .synced }
    return sentOnThisSocket ? .sent : .enqueued
  }

  var publicValue: PendingWrite { PendingWrite(id: id, created: created, state: publicState, txID: txID) }

  /// The attrs this write creates (`add-attr` steps).
  var addedAttrs: [JSON] {
    steps.compactMap { step in
      guard case let .array(parts) = step, parts.first == "add-attr", parts.count > 1 else { return nil }
      return parts[1]
    }
  }
}
