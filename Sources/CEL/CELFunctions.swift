/// Functions and methods the host adds to CEL, given to ``CELProgram`` when it is created so that
/// a call to a function nobody provides is rejected then ("unknown function 'foo'"), not when a
/// rule first runs.
///
/// A host function may share a built-in's name and arity (InstantDB's `timestamp(int)` reads epoch
/// milliseconds): the host's runs first, and returning nil hands the call to the built-in (or, if
/// there is none, makes it a `noSuchOverload` error).
public struct CELFunctions: Sendable {
  public typealias Function = @Sendable ([CELValue]) throws(CELEvaluationError) -> CELValue?
  public typealias Method = @Sendable (CELValue, [CELValue]) throws(CELEvaluationError) -> CELValue?

  struct Key: Hashable {
    let name: String
    let arity: Int
  }

  private(set) var functions: [Key: Function] = [:]
  private(set) var methods: [Key: Method] = [:]
  private(set) var objectMethods: Set<Key> = []

  public init() {}

  /// A global function, `name(a, b)`; the name may be qualified (`geo.distance`).
  public mutating func function(_ name: String, arity: Int, _ body: @escaping Function) {
    functions[Key(name: name, arity: arity)] = body
  }

  /// A receiver-style method, `x.name(a)`; `body` gets the receiver and the arguments.
  public mutating func method(_ name: String, arity: Int, _ body: @escaping Method) {
    methods[Key(name: name, arity: arity)] = body
  }

  /// A method that ``CELObject`` receivers answer themselves through ``CELObject/call(_:_:)``
  /// (InstantDB's `data.ref(path)`): declared here only so that the program accepts the call.
  public mutating func declareObjectMethod(_ name: String, arity: Int) {
    objectMethods.insert(Key(name: name, arity: arity))
  }

  func hasFunction(named name: String) -> Bool {
    functions.keys.contains { $0.name == name }
  }

  func hasMethod(named name: String) -> Bool {
    methods.keys.contains { $0.name == name } || objectMethods.contains { $0.name == name }
  }
}
