/// A host value that CEL reads lazily: InstantDB's `data`, `auth` and `rateLimit` fetch fields and
/// answer `data.ref('owner.id')` only when a rule asks.
///
/// Objects are reference types so that equality has a meaning: an object equals only itself
/// (unless ``isEqual(to:)`` says more), and it never equals a value of another type — so
/// `auth != null` is simply `true`, as InstantDB's rules expect.
public protocol CELObject: AnyObject, Sendable {
  /// What `type(x)` names; `map` unless the object says otherwise.
  var typeName: String { get }

  /// `x.name` and `x['name']`: the field's value, or nil when there is no such field (a
  /// `noSuchField` error; `has(x.name)` is false).
  func member(_ name: String) throws(CELEvaluationError) -> CELValue?

  /// `x.method(args…)`: the result, or nil when this object has no such method (the program then
  /// tries the host's ``CELFunctions`` methods, then the built-in ones). The method's name must
  /// also be declared with ``CELFunctions/declareObjectMethod(_:arity:)`` (or registered with
  /// ``CELFunctions/method(_:arity:_:)``) so that the program accepts it when it is created.
  func call(_ method: String, _ arguments: [CELValue]) throws(CELEvaluationError) -> CELValue?

  /// The whole object as a plain value, for what needs every entry: `size(x)`, `k in x`,
  /// `x.all(k, …)`, conversions. Nil (the default) makes those a `noSuchOverload` error.
  func materialize() throws(CELEvaluationError) -> CELValue?

  /// CEL `==` between this object and another one; the default is identity.
  func isEqual(to other: any CELObject) -> Bool
}

extension CELObject {
  public var typeName: String { "map" }
  public func call(_ method: String, _ arguments: [CELValue]) throws(CELEvaluationError) -> CELValue? { nil }
  public func materialize() throws(CELEvaluationError) -> CELValue? { nil }
  public func isEqual(to other: any CELObject) -> Bool { self === other }
}
