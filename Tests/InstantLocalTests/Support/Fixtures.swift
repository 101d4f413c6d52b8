import Foundation
import InstantCore

/// Fresh lower-case ids.
func newID() -> String { UUID().uuidString.lowercased() }

/// A `transact` message with these steps.
func transact(_ steps: [JSON]) -> JSON {
  ["op": "transact", "tx-steps": .array(steps)]
}

/// `["add-triple", entity, attr, value]`.
func addTriple(_ entity: String, _ attr: String, _ value: JSON) -> JSON {
  ["add-triple", .string(entity), .string(attr), value]
}

/// The steps that create entity `id` in the namespace whose `id` attr is `idAttr`, then set
/// `values` (attr id → value) in order.
func createEntity(_ id: String, idAttr: String, _ values: KeyValuePairs<String, JSON> = [:]) -> [JSON] {
  [addTriple(id, idAttr, .string(id))] + values.map { addTriple(id, $0.key, $0.value) }
}

/// `["add-attr", …]` for a blob attr `etype.label`.
func blobAttr(_ id: String, _ etype: String, _ label: String, unique: Bool = false, indexed: Bool = false) -> JSON {
  [
    "add-attr",
    [
      "id": .string(id), "forward-identity": [.string(newID()), .string(etype), .string(label)], "value-type": "blob",
      "cardinality": "one", "unique?": .bool(unique), "index?": .bool(indexed),
    ],
  ]
}

/// `["add-attr", …]` for a many ref `etype.label` ↔ `target.reverse`.
func refAttr(_ id: String, _ etype: String, _ label: String, _ target: String, _ reverse: String) -> JSON {
  [
    "add-attr",
    [
      "id": .string(id), "forward-identity": [.string(newID()), .string(etype), .string(label)],
      "reverse-identity": [.string(newID()), .string(target), .string(reverse)], "value-type": "ref",
      "cardinality": "many", "unique?": false, "index?": false,
    ],
  ]
}

/// Every triple in an instaql result, read as the client reads it.
func triples(_ result: JSON?) -> [JSON] { ServerQueryResult.triples(in: result ?? .null) }
