import Testing
@testable import InstantCore
import Foundation
internal import OrderedCollections

extension TestData {
  /// Label → entity id.
  static let ids: [String: String] = Dictionary(uniqueKeysWithValues: labels.map { ($1, $0) })

  /// The entity id of a label such as `"i1"`.
  static func id(_ label: String) -> String {
    guard let id = ids[label] else { fatalError("no test entity labelled \(label)") }
    return id
  }

  static func attrs(linkIndex: JSON? = nil) throws -> AttrStore {
    try AttrStore(json: JSON.parse(attrsJSON), linkIndex: linkIndex)
  }

  /// A fresh store over the dataset.
  static func store(cardinalityInference: Bool = false, linkIndex: JSON? = nil) throws -> TripleStore {
    guard case let .array(rows) = try JSON.parse(triplesJSON) else { fatalError("triples must be an array") }
    return try TripleStore(attrs: attrs(linkIndex: linkIndex), tripleRows: rows, cardinalityInference: cardinalityInference)
  }

  /// Parses JSON text in which `"@label"` stands for that entity's id.
  static func json(_ text: String) throws -> JSON {
    var text = text
    for (label, id) in ids { text = text.replacingOccurrences(of: "\"@\(label)\"", with: "\"\(id)\"") }
    return try JSON.parse(text)
  }

  /// Replaces every entity id in `value` by its label, so expectations stay readable.
  static func relabel(_ value: JSON) -> JSON {
    switch value {
    case let .string(s): return .string(labels[s] ?? s)
    case let .array(a): return .array(a.map(relabel))
    case let .object(o): return .object(o.mapValues(relabel))
    default: return value
    }
  }

  /// The labels of the entities a one-namespace result lists, in order.
  static func resultLabels(_ result: InstaQLResult) throws -> [String] {
    let namespaces = try #require(result.data.objectValue)
    try #require(namespaces.count == 1, "expected one namespace in \(result.data)")
    let rows = try #require(namespaces.values.first?.arrayValue)
    return try rows.map { row in
      let id = try #require(row["id"]?.stringValue, "row without id: \(row)")
      return labels[id] ?? id
    }
  }
}

private func run(
  _ query: String, transactions: String?, pageInfo: String?, cardinalityInference: Bool, linkIndex: String?,
  store: TripleStore?
) throws -> InstaQLResult {
  let linkIndexJSON = try linkIndex.map { try JSON.parse($0) }
  var store = try store ?? TestData.store(cardinalityInference: cardinalityInference, linkIndex: linkIndexJSON)
  if let transactions {
    for batch in try #require(TestData.json(transactions).arrayValue) { try store.transact(#require(batch.arrayValue)) }
  }
  return try store.query(TestData.json(query), pageInfo: pageInfo.map { try TestData.json($0) })
}

/// Runs `query` on ``TestData`` (or `store`) and expects the listed entities, in this order.
func expectLabels(
  _ query: String, _ expected: [String], transactions: String? = nil, pageInfo: String? = nil, cardinalityInference: Bool = false,
  linkIndex: String? = nil, store: TripleStore? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let result = try run(
    query, transactions: transactions, pageInfo: pageInfo, cardinalityInference: cardinalityInference, linkIndex: linkIndex, store: store)
  expectEqual(try TestData.resultLabels(result), expected, sourceLocation: sourceLocation)
}

/// Runs `query` and expects the whole result JSON (`{"data": …, "pageInfo"?: …}`), ids relabelled.
func expectResult(
  _ query: String, transactions: String? = nil, pageInfo: String? = nil, cardinalityInference: Bool = false,
  linkIndex: String? = nil, store: TripleStore? = nil, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let result = try run(
    query, transactions: transactions, pageInfo: pageInfo, cardinalityInference: cardinalityInference, linkIndex: linkIndex, store: store)
  expectEqual(TestData.relabel(result.json), try JSON.parse(expected), sourceLocation: sourceLocation)
}

/// Expects the query to be refused with an ``InstaQLError``.
func expectQueryError(
  _ query: String, pageInfo: String? = nil, store: TripleStore? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let q = try TestData.json(query)
  let store = try store ?? TestData.store()
  #expect(throws: InstaQLError.self, sourceLocation: sourceLocation) { try store.query(q) }
}
