import InstantCore

/// The data of the chaos app as plain facts: each entity's attributes and each link, so a server,
/// a client and the model compare with `==` and differ fact by fact.
public struct ChaosState: Sendable, Equatable {
  /// `namespace/id` → attribute → value.
  public var entities: [String: [String: JSON]] = [:]
  /// `namespace/id/label/target`, forward side only.
  public var links: Set<String> = []

  public init() {}

  /// Reads a result of ``ChaosSchema/query``.
  public init(result data: JSON) {
    for namespace in ["lists", "items", "tags"] {
      let label = ChaosSchema.forwardLinks[namespace]
      for row in data[namespace]?.arrayValue ?? [] {
        guard let id = row["id"]?.stringValue, let fields = row.objectValue else { continue }
        var attributes: [String: JSON] = [:]
        for (key, value) in fields where key != "id" && key != label { attributes[key] = value }
        entities["\(namespace)/\(id)"] = attributes
        if let label {
          for target in row[label]?.arrayValue ?? [] {
            if let target = target["id"]?.stringValue { links.insert("\(namespace)/\(id)/\(label)/\(target)") }
          }
        }
      }
    }
  }

  /// Both states together (the clients' partitions are disjoint).
  public mutating func merge(_ other: ChaosState) {
    entities.merge(other.entities) { a, _ in a }
    links.formUnion(other.links)
  }
}

/// One fact where a replica differs from the model.
public struct ChaosDifference: Sendable, Equatable, CustomStringConvertible {
  public enum Kind: String, Sendable {
    /// In the model, missing from the replica: a write lost.
    case lost
    /// In the replica, not in the model: a write applied again (or brought back).
    case duplicated
    /// In both, with another value.
    case diverged
  }

  public var kind: Kind
  public var fact: String
  public var description: String { "\(kind): \(fact)" }

  /// Every difference of `actual` from `expected`, sorted so the first is stable.
  public static func between(expected: ChaosState, actual: ChaosState) -> [ChaosDifference] {
    var found: [ChaosDifference] = []
    for key in Set(expected.entities.keys).union(actual.entities.keys).sorted() {
      switch (expected.entities[key], actual.entities[key]) {
      case let (want?, nil):
        found.append(.init(kind: .lost, fact: "\(key) \(describe(want))"))
      case (nil, _?):
        found.append(.init(kind: .duplicated, fact: "\(key) exists"))
      case let (want?, got?):
        for attribute in Set(want.keys).union(got.keys).sorted() {
          let fact = "\(key).\(attribute)"
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
    for link in expected.links.subtracting(actual.links).sorted() { found.append(.init(kind: .lost, fact: link)) }
    for link in actual.links.subtracting(expected.links).sorted() { found.append(.init(kind: .duplicated, fact: link)) }
    return found
  }

  static func describe(_ attributes: [String: JSON]) -> String {
    "{" + attributes.keys.sorted().map { "\($0): \(attributes[$0]!.serialized())" }.joined(separator: ", ") + "}"
  }
}
