import InstantCore
import OrderedCollections

/// The namespaces a query can read: its top-level namespaces and every namespace reachable from
/// them through a link whose label appears anywhere in the query (child forms, `where` paths,
/// options). A triple whose attr belongs to none of them — neither its forward namespace nor, for
/// a link, its reverse one — cannot change the query's result, so the invalidation pass skips
/// the query. This over-approximates (any string in the query counts as a possible label), which
/// is what keeps it safe: a superset only costs a re-run whose unchanged result is not sent.
struct QueryFootprint: Sendable {
  let namespaces: Set<String>
  /// The query as a result kept current from what changed, when it can be one.
  let entityLocal: EntityLocalQuery?

  init(_ q: JSON, attrs: AttrStore) {
    var words: Set<String> = []
    Self.collect(q, into: &words)
    var namespaces = Set((q.objectValue?.keys).map(Array.init) ?? [])
    namespaces.remove("$$ruleParams")
    var frontier = Array(namespaces)
    while let etype = frontier.popLast() {
      for word in words {
        if let attr = attrs.forward(etype, word), attr.isRef, let target = attr.reverseIdentity?.etype,
          namespaces.insert(target).inserted
        {
          frontier.append(target)
        }
        if let attr = attrs.reverse(etype, word), namespaces.insert(attr.forwardIdentity.etype).inserted {
          frontier.append(attr.forwardIdentity.etype)
        }
      }
    }
    self.namespaces = namespaces
    entityLocal = EntityLocalQuery(q, attrs: attrs)
  }

  /// Whether a change touching `changed` namespaces may change this query's result.
  func mayChange(_ changed: Set<String>) -> Bool { !namespaces.isDisjoint(with: changed) }

  /// Every object key and string in `value`, with dotted paths also split into their parts.
  private static func collect(_ value: JSON, into words: inout Set<String>) {
    switch value {
    case let .object(o):
      for (key, child) in o {
        addWord(key, &words)
        collect(child, into: &words)
      }
    case let .array(items):
      for item in items { collect(item, into: &words) }
    case let .string(s):
      addWord(s, &words)
    default:
      break
    }
  }

  private static func addWord(_ word: String, _ words: inout Set<String>) {
    words.insert(word)
    if word.contains(".") {
      for part in word.split(separator: ".") { words.insert(String(part)) }
    }
  }
}
