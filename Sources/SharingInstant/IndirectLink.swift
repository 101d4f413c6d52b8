/// Storage for a has-one link that would otherwise make a struct contain itself.
///
/// A generated entity whose has-one links form a cycle (a `parent` pointing at the same
/// namespace, or `a.b` / `b.a` both has-one) keeps that link in this box and exposes it through
/// a plain computed property, so the struct keeps value semantics and a finite size.
public enum IndirectLink<Value: Sendable & Equatable>: Sendable, Equatable {
  indirect case value(Value)

  /// Boxes `value`.
  public init(_ value: Value) {
    self = .value(value)
  }

  /// The boxed value.
  public var value: Value {
    switch self {
    case .value(let value): value
    }
  }
}
