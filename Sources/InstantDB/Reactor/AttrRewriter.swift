import InstantCore

/// Rewrites the attr ids a pending write invented when the server has since created the same
/// attribute under another id (another device created it first), as the reference's
/// `_rewriteMutations` does (docs/protocol.md, "Attr id rewriting"): the write's `add-attr` is dropped and the local
/// id is replaced by the server's everywhere after it; a link the server knows from its other
/// side has the entity and value of its triples swapped.
///
/// Unlike the reference, a rewrite keeps `update-attr`/`delete-attr` steps.
enum AttrRewriter {
  /// Returns the indices of the mutations that changed.
  static func rewrite(_ mutations: inout [PendingMutation], against server: AttrStore) -> [Int] {
    var mapped: [String: String] = [:]
    var swapped: Set<String> = []
    var changed: [Int] = []
    for i in mutations.indices {
      var steps: [JSON] = []
      var didChange = false
      for step in mutations[i].steps {
        guard case let .array(parts) = step, parts.first?.stringValue != nil else {
          steps.append(step)
          continue
        }
        // An add-attr that does not parse is kept as it is (below), for the server to judge.
        if let add = TxStep.read(step), add.op == .addAttr, let json = add.attrArgument,
          let local = try? Attr(json: json), server[local.id] == nil
        {
          let f = local.forwardIdentity
          if let existing = server.forward(f.etype, f.label) {
            mapped[local.id] = existing.id
            didChange = true
            continue
          }
          if local.isRef, let existing = server.reverse(f.etype, f.label) {
            mapped[local.id] = existing.id
            swapped.insert(existing.id)
            didChange = true
            continue
          }
        }
        guard !mapped.isEmpty else {
          steps.append(step)
          continue
        }
        let rewritten = rewriteStep(parts, mapped: mapped, swapped: swapped)
        if rewritten != step { didChange = true }
        steps.append(rewritten)
      }
      if didChange {
        mutations[i].steps = steps
        changed.append(i)
      }
    }
    return changed
  }

  private static func rewriteStep(_ parts: [JSON], mapped: [String: String], swapped: Set<String>) -> JSON {
    var out = parts.map { mapIDs($0, mapped) }
    if let step = TxStep.read(.array(out)), step.op == .addTriple || step.op == .retractTriple, step.isCompleteTriple,
      let attr = step.attrID, swapped.contains(attr)
    {
      out.swapAt(1, 3)
    }
    return .array(out)
  }

  /// Replaces mapped ids in attr positions and inside lookup refs `[attr-id, value]`.
  private static func mapIDs(_ value: JSON, _ mapped: [String: String]) -> JSON {
    switch value {
    case let .string(s): return mapped[s].map(JSON.string) ?? value
    case let .array(a) where a.count == 2: return .array([mapIDs(a[0], mapped), a[1]])
    default: return value
    }
  }
}
