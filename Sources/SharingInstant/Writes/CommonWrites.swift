import InstantCore

/// The writes that several diffs of one edit agree on, each diff made against a value the edit may
/// have started from.
///
/// Each diff is split into its smallest parts — an entity created, one attribute set to one value,
/// an entity deleted, one id linked or unlinked under one label — and a part is written only when
/// every diff has it. Whichever value the edit really started from, its own diff is among them, so
/// what is written is part of it: the edit's own changes, never a change that only looks like one
/// against another value (a create elsewhere as a delete, a change elsewhere as its undoing).
enum CommonWrites {
  /// `diffs[0]`'s writes, kept where every diff has them, in `diffs[0]`'s order. An entity that is
  /// created in some diffs only is updated strictly instead (`upsert: false`): it existed in
  /// another value, and may since have been deleted elsewhere. `withheld` describes the parts of
  /// `diffs[0]` that were not written.
  static func common(_ diffs: [[InstaMLOp]]) -> (ops: [InstaMLOp], withheld: [String]) {
    guard let first = diffs.first else { return ([], []) }
    let others = diffs.dropFirst().map { Set($0.flatMap(Part.parts)) }
    var ops: [InstaMLOp] = []
    var withheld: [String] = []
    for op in first {
      let (kept, left) = Part.filter(op) { part in others.allSatisfy { $0.contains(part) } }
      ops += kept
      withheld += left.map(\.description)
    }
    return (ops, withheld)
  }

  /// One indivisible part of a write.
  private enum Part: Hashable, CustomStringConvertible {
    case create(etype: String, entity: JSON)
    case set(etype: String, entity: JSON, attr: String, value: JSON)
    case delete(etype: String, entity: JSON)
    case link(InstaMLOp.Action, etype: String, entity: JSON, label: String, target: JSON)

    var description: String {
      switch self {
      case let .create(etype, entity): "create \(etype) \(entity)"
      case let .set(etype, entity, attr, value): "set \(etype) \(entity) \(attr) = \(value)"
      case let .delete(etype, entity): "delete \(etype) \(entity)"
      case let .link(action, etype, entity, label, target): "\(action) \(etype) \(entity) \(label) \(target)"
      }
    }

    static func parts(_ op: InstaMLOp) -> [Part] {
      var parts: [Part] = []
      _ = filter(op) { parts.append($0); return true }
      return parts
    }

    /// `op` split into the writes made of the parts `keep` accepts, and the parts it refused.
    static func filter(_ op: InstaMLOp, _ keep: (Part) -> Bool) -> (kept: [InstaMLOp], refused: [Part]) {
      let (etype, entity) = (op.etype, op.entity)
      var refused: [Part] = []
      func accept(_ part: Part) -> Bool {
        if keep(part) { return true }
        refused.append(part)
        return false
      }
      let arguments = op.args?.objectValue ?? [:]
      switch op.action {
      case .create:
        let creates = accept(.create(etype: etype, entity: entity))
        let attrs = arguments.filter { accept(.set(etype: etype, entity: entity, attr: $0.key, value: $0.value)) }
        if creates { return ([InstaMLOp(.create, etype, entity, .object(attrs))], refused) }
        let strict = InstaMLOp(.update, etype, entity, .object(attrs), opts: ["upsert": false])
        return (attrs.isEmpty ? [] : [strict], refused)
      case .update, .merge:
        let attrs = arguments.filter { accept(.set(etype: etype, entity: entity, attr: $0.key, value: $0.value)) }
        return (attrs.isEmpty ? [] : [InstaMLOp(op.action, etype, entity, .object(attrs), opts: op.opts)], refused)
      case .delete:
        return (accept(.delete(etype: etype, entity: entity)) ? [op] : [], refused)
      case .link, .unlink:
        var links = JSONObject()
        for (label, targets) in arguments {
          let kept = (targets.arrayValue ?? [targets]).filter {
            accept(.link(op.action, etype: etype, entity: entity, label: label, target: $0))
          }
          if !kept.isEmpty { links[label] = .array(kept) }
        }
        return (links.isEmpty ? [] : [InstaMLOp(op.action, etype, entity, .object(links))], refused)
      case .ruleParams:
        return ([op], refused)
      }
    }
  }
}
