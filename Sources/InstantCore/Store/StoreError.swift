/// A store operation that cannot be carried out.
///
/// `kind` says what went wrong; `message` is the reference client's text where it has one (the
/// conformance runner reports it); `description` says it for a Swift caller.
public struct StoreError: Error, CustomStringConvertible, Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    /// Row `index` of a triple list is not `[entity-id, attr-id, value, created-at?]`.
    case invalidTriple(index: Int)
    /// A tx-step whose action the store does not know.
    case unknownAction(String)
    /// An attr definition in `add-attr` or `update-attr` that cannot be read.
    case invalidAttr
    /// `deep-merge-triple` on `namespace.label`, which is a link.
    case mergeIntoLink(attribute: String)
    /// `delete-entity` cascades without end (`on-delete: cascade` links in a cycle).
    case cascadeCycle
  }

  public var kind: Kind
  /// The reference client's text.
  public var message: String
  public var description: String

  static func invalidTriple(_ index: Int, _ row: JSON) -> Self {
    let text = "triple \(index) is not [entity-id, attr-id, value, created-at?]: \(row.serialized())"
    return StoreError(kind: .invalidTriple(index: index), message: text, description: text)
  }

  static func unknownAction(_ action: String) -> Self {
    StoreError(
      kind: .unknownAction(action), message: "unhandled transaction action: \(action)",
      description: "Unknown tx-step action \(action); expected one of "
        + TxStep.Op.allCases.map(\.rawValue).joined(separator: ", ") + ".")
  }

  static func invalidAttr(_ reason: String) -> Self {
    StoreError(kind: .invalidAttr, message: reason, description: "Invalid attr: \(reason)")
  }

  static func mergeIntoLink(_ attr: Attr) -> Self {
    let name = attr.qualifiedName
    return StoreError(
      kind: .mergeIntoLink(attribute: name), message: "merge operation is not supported for links",
      description: "deep-merge-triple needs a blob attribute, but \(name) is a link.")
  }

  static var cascadeCycle: Self {
    StoreError(
      kind: .cascadeCycle, message: "Maximum call stack size exceeded",
      description: "delete-entity cascades without end: on-delete cascade links form a cycle.")
  }
}
