package import InstantCore
internal import OrderedCollections

/// The data of the chaos app as plain facts: each entity's attributes and each link, so a server,
/// a client and the model compare with `==` and differ fact by fact.
///
/// Shared entities (``ChaosSchema/keyedBy``) are named by their unique key, `boards/board-3`,
/// since the server picks the id of an entity a lookup creates. A second entity with the same key
/// is named `boards/board-3#<id>` (the first by id keeps the plain name), so it shows as a fact
/// the model does not have.
package struct ChaosState: Sendable, Equatable {
  /// `namespace/id` (or `namespace/key`) → attribute → value.
  package var entities: [String: [String: JSON]] = [:]
  /// `namespace/id/label/target`, forward side only.
  package var links: Set<String> = []
  /// `namespace/key` → the id of a shared entity, as a replica read it. The model leaves it empty;
  /// two replicas must agree.
  package var ids: [String: String] = [:]
  /// `namespace/key.attribute` → the values that may end there: an attribute every client writes
  /// (the last writer wins) must end as one of the clients' last enqueued values. Only the model
  /// has these; such an attribute is not in ``entities`` of the model.
  package var choices: [String: Set<JSON>] = [:]

  package init() {}

  /// Reads a result of ``ChaosSchema/query``.
  package init(result data: JSON) {
    for namespace in ["lists", "items", "tags", "boards"] {
      let label = ChaosSchema.forwardLinks[namespace]
      let keyAttribute = ChaosSchema.keyedBy[namespace]
      let rows = (data[namespace]?.arrayValue ?? []).sorted {
        ($0["id"]?.stringValue ?? "") < ($1["id"]?.stringValue ?? "")
      }
      for row in rows {
        guard let id = row["id"]?.stringValue, let fields = row.objectValue else { continue }
        var name = "\(namespace)/\(id)"
        if let keyAttribute {
          if let key = row[keyAttribute]?.stringValue {
            name = "\(namespace)/\(key)"
            if entities[name] != nil { name += "#\(id)" } else { ids[name] = id }
          } else {
            name = "\(namespace)/#\(id)"
          }
        }
        var attributes: [String: JSON] = [:]
        for (key, value) in fields where key != "id" && key != label { attributes[key] = value }
        entities[name] = attributes
        if let label {
          for target in row[label]?.arrayValue ?? [] {
            if let target = target["id"]?.stringValue { links.insert("\(name)/\(label)/\(target)") }
          }
        }
      }
    }
  }

  /// Both states together: the clients' own entities are disjoint; a shared entity gets the
  /// attributes of both (each client writes its own), and the last values of both.
  package mutating func merge(_ other: ChaosState) {
    entities.merge(other.entities) { a, b in a.merging(b) { x, _ in x } }
    links.formUnion(other.links)
    ids.merge(other.ids) { a, _ in a }
    choices.merge(other.choices) { a, b in a.union(b) }
  }
}

/// One fact where a replica differs from the model.
package struct ChaosDifference: Sendable, Equatable, CustomStringConvertible {
  package enum Kind: String, Sendable {
    /// In the model, missing from the replica: a write lost.
    case lost
    /// In the replica, not in the model: a write applied again (or brought back), or a second
    /// entity for one key.
    case duplicated
    /// In both, with another value (for a last-writer-wins attribute: none of the clients' last
    /// values).
    case diverged
  }

  package var kind: Kind
  package var fact: String
  package var description: String { "\(kind): \(fact)" }

  /// Every difference of `actual` from `expected`, sorted so the first is stable.
  package static func between(expected: ChaosState, actual: ChaosState) -> [ChaosDifference] {
    var found: [ChaosDifference] = []
    for key in Set(expected.entities.keys).union(actual.entities.keys).sorted() {
      switch (expected.entities[key], actual.entities[key]) {
      case let (want?, nil):
        found.append(.init(kind: .lost, fact: "\(key) \(describe(want))"))
      case (nil, _?):
        found.append(.init(kind: .duplicated, fact: "\(key) exists"))
      case let (want?, got?):
        let chosen = expected.choices.keys.filter { $0.hasPrefix("\(key).") }.map { String($0.dropFirst(key.count + 1)) }
        for attribute in Set(want.keys).union(got.keys).union(chosen).sorted() {
          let fact = "\(key).\(attribute)"
          if let allowed = expected.choices[fact] {
            found += choice(fact, allowed: allowed, got: got[attribute])
            continue
          }
          switch (want[attribute], got[attribute]) {
          case (_?, nil): found.append(.init(kind: .lost, fact: "\(fact) = \(want[attribute]!.serialized())"))
          case (nil, _?): found.append(.init(kind: .duplicated, fact: "\(fact) = \(got[attribute]!.serialized())"))
          case let (a?, b?) where a != b:
            found.append(.init(kind: .diverged, fact: "\(fact): \(a.serialized()) ≠ \(b.serialized())"))
          default: break
          }
        }
      case (nil, nil): break
      }
    }
    for key in Set(expected.ids.keys).intersection(actual.ids.keys).sorted() where expected.ids[key] != actual.ids[key] {
      found.append(.init(kind: .diverged, fact: "\(key).id: \(expected.ids[key]!) ≠ \(actual.ids[key]!)"))
    }
    for link in expected.links.subtracting(actual.links).sorted() { found.append(.init(kind: .lost, fact: link)) }
    for link in actual.links.subtracting(expected.links).sorted() { found.append(.init(kind: .duplicated, fact: link)) }
    return found
  }

  /// A last-writer-wins attribute: missing is lost, anything but one of `allowed` diverged.
  private static func choice(_ fact: String, allowed: Set<JSON>, got: JSON?) -> [ChaosDifference] {
    let list = allowed.map { $0.serialized() }.sorted().joined(separator: ", ")
    guard let got else { return [.init(kind: .lost, fact: "\(fact) ∈ {\(list)}")] }
    guard allowed.contains(got) else {
      return [.init(kind: .diverged, fact: "\(fact): \(got.serialized()) is not a client's last value {\(list)}")]
    }
    return []
  }

  static func describe(_ attributes: [String: JSON]) -> String {
    "{" + attributes.keys.sorted().map { "\($0): \(attributes[$0]!.serialized())" }.joined(separator: ", ") + "}"
  }
}
