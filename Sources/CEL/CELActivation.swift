/// The variables a program reads: InstantDB's `auth`, `data`, `newData`, `ruleParams`, ….
public protocol CELActivation {
  /// The value of a variable, or nil when there is none (an `unboundVariable` error if the
  /// program reads it). A program created without declared variables also asks for dotted names
  /// first (`a.b.c`, then `a.b`), since CEL lets a variable's name contain dots.
  func resolve(_ name: String) -> CELValue?
}

/// Variables from a dictionary.
public struct CELVariables: CELActivation, Sendable, ExpressibleByDictionaryLiteral {
  public var values: [String: CELValue]

  public init(_ values: [String: CELValue] = [:]) { self.values = values }

  public init(dictionaryLiteral elements: (String, CELValue)...) {
    self.values = Dictionary(elements, uniquingKeysWith: { _, last in last })
  }

  public func resolve(_ name: String) -> CELValue? { values[name] }
}
