/// What a server transaction did, step by step, with every entity resolved (lookups found, ids
/// lower-cased, cascades followed): what permission rules are checked against. The triples alone
/// do not say it: a `delete-entity` of an entity that has no data, a `rule-params` step and the
/// attribute a write named all leave no trace in them.
package struct TransactionFacts: Sendable, Equatable {
  /// An `add-triple`, `deep-merge-triple` or `retract-triple`.
  package struct Write: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
      case add, merge, retract
    }

    package var kind: Kind
    package var entity: String
    /// The attr's forward namespace and label.
    package var etype: String
    package var label: String
    package var attrID: String
    /// For a link (a ref attr): the entity on the other side, and its namespace.
    package var linked: String?
    package var linkedEtype: String?
    /// The link's label as seen from the other side.
    package var reverseLabel: String?
  }

  /// A `delete-entity`, or an entity a cascade deleted with it.
  package struct Delete: Sendable, Equatable {
    package var entity: String
    package var etype: String
    /// The entity whose `delete-entity` step caused this one (itself when it is that step's).
    package var root: String
    package var rootEtype: String
  }

  /// A `rule-params` step: `params` for the checks on `entity` in `etype`.
  package struct RuleParams: Sendable, Equatable {
    /// The entity's id, or the lookup `[attr-id, value]` as sent when it named an entity this
    /// transaction creates later (resolve it against the store afterwards).
    package var entity: JSON
    package var etype: String
    package var params: JSON
  }

  package var writes: [Write] = []
  package var deletes: [Delete] = []
  package var ruleParams: [RuleParams] = []
  /// The attrs `add-attr` steps added, as sent.
  package var addedAttrs: [JSON] = []
  /// Whether an `update-attr`, `delete-attr` or `restore-attr` step ran.
  package var changedAttrs = false

  package init() {}
}
