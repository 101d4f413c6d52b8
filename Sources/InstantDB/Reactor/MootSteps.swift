import InstantCore

/// The steps of a re-sent write that later pending writes of this device undo anyway.
///
/// A write re-sent after its `transact-ok` was lost may have committed already, and so may the
/// writes after it: re-sending is a replay over a server that may be ahead. Most steps replay
/// harmlessly, but a step that the server now refuses — a strict update of an entity a later write
/// deleted, a unique link a later write undid and made elsewhere — fails the whole re-sent
/// transaction, and with it the steps that should have restored values an earlier re-send had
/// just set back. Dropping from a re-send every step that a later write deletes or retracts keeps
/// the replay's outcome that of the original sequence: the later write runs after it on the same
/// socket either way.
struct MootSteps {
  /// `etype` → entities deleted (`delete-entity`) by later writes.
  private var deleted: [String: Set<JSON>] = [:]
  /// `[e, attr, v]` of the triples retracted by later writes.
  private var retracted: Set<JSON> = []

  /// Takes in the steps of a write that comes after the ones checked from now on.
  mutating func absorb(_ steps: [JSON]) {
    for case let step? in steps.map(TxStep.read) {
      switch step.op {
      case .deleteEntity:
        if let entity = step.entity, let etype = step.etype?.stringValue { deleted[etype, default: []].insert(entity) }
      case .retractTriple where step.isCompleteTriple:
        retracted.insert(.array(Array(step.parts[1...3])))
      default: break
      }
    }
  }

  /// A write between this point and a later delete that is sent whole needs what it names to
  /// exist when it runs: a step of an earlier write that creates or sets such an entity is not
  /// moot (if the earlier write's first send never reached the server, dropping it would make
  /// the whole-sent write fail — found by instant-chaos, seed 7).
  mutating func keepEntities(namedBy steps: [JSON]) {
    guard !deleted.isEmpty else { return }
    for step in steps {
      guard case let .array(parts) = step, parts.count >= 2 else { continue }
      for etype in deleted.keys {
        deleted[etype]!.remove(parts[1])
        if parts.count >= 4 { deleted[etype]!.remove(parts[3]) }
      }
    }
  }

  /// `steps` without the ones a later write undoes (an `add-triple` or `deep-merge-triple` on an
  /// entity deleted later, a link to an entity deleted later, a triple retracted later).
  func filter(_ steps: [JSON], attrs: AttrStore) -> [JSON] {
    guard !deleted.isEmpty || !retracted.isEmpty else { return steps }
    return steps.filter { !isMoot($0, attrs: attrs) }
  }

  private func isMoot(_ step: JSON, attrs: AttrStore) -> Bool {
    guard let step = TxStep.read(step), step.op == .addTriple || step.op == .deepMergeTriple, step.isCompleteTriple,
      let attrID = step.attrID, let attr = attrs[attrID]
    else { return false }
    let parts = step.parts
    if deleted[attr.forwardIdentity.etype]?.contains(parts[1]) == true { return true }
    if attr.isRef, let target = attr.reverseIdentity?.etype, deleted[target]?.contains(parts[3]) == true {
      return true
    }
    return retracted.contains(.array(Array(parts[1...3])))
  }
}
