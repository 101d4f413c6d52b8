/// Why an evaluation failed. CEL has no way to catch errors inside a program, except that `&&`,
/// `||`, `all` and `exists` absorb one when the other side decides the result.
public struct CELEvaluationError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// A map has no such key: `{'a': 1}['b']`.
    case noSuchKey
    /// A map or object has no such field: `m.b`, `has(x.f)` on a value without fields.
    case noSuchField
    /// No variable of that name in the activation.
    case unboundVariable
    /// No function or operator for these argument types: `1 + 'a'`, `size(1)`.
    case noSuchOverload
    /// Integer division or modulo by zero.
    case divisionByZero
    /// An integer, timestamp or duration result out of range, or a conversion that does not fit.
    case overflow
    /// A list index outside the list.
    case indexOutOfBounds
    /// An argument of the right type and wrong value: a malformed timestamp, a bad regex.
    case invalidArgument
    /// The evaluation went past a ``CELLimits`` bound; never absorbed by `&&` or `||`.
    case limitExceeded
    /// A feature this implementation does not have (e.g. a named time zone).
    case unsupported
    /// The host's error, from a ``CELObject`` or a ``CELFunctions`` function.
    case host
  }

  public let kind: Kind
  public let message: String
  /// Where in the source the failing operation is (offset in Unicode scalars), when known.
  public internal(set) var offset: Int?

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
    self.offset = nil
  }

  /// A host failure with a message for the developer.
  public static func host(_ message: String) -> CELEvaluationError { .init(.host, message) }

  public var description: String { message }

  /// This error, located at `offset` unless an inner operation already located it.
  func located(at offset: Int) -> CELEvaluationError {
    guard self.offset == nil else { return self }
    var copy = self
    copy.offset = offset
    return copy
  }
}
