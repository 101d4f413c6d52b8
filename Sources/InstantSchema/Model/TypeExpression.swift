/// A TypeScript type from a type argument, reduced to what can become Swift.
public indirect enum TypeExpression: Sendable, Hashable {
  case string
  case number
  case boolean
  case null
  /// `any`, `unknown`, `object` or `{}`: any JSON value.
  case any
  case stringLiteral(String)
  case numberLiteral(Double)
  case booleanLiteral(Bool)
  /// `T[]` or `Array<T>`.
  case array(TypeExpression)
  /// `Record<string, T>` or `{ [key: string]: T }`.
  case record(TypeExpression)
  /// An inline object type.
  case object([TypeMember])
  /// `A | B`.
  case union([TypeExpression])
  /// A local or relatively imported `type`/`interface`, with its resolved definition.
  case alias(String, TypeExpression)
  /// A type the generator cannot see or map (imported from a package, a tuple, an indexed
  /// access…); the text says what it was.
  case opaque(String)

  /// The members of a string-literal union, or `nil` if this is not one.
  public var stringLiterals: [String]? {
    switch self {
    case .stringLiteral(let value): return [value]
    case .alias(_, let type): return type.stringLiterals
    case .union(let members):
      var literals: [String] = []
      for member in members {
        guard let values = member.stringLiterals else { return nil }
        literals.append(contentsOf: values)
      }
      return literals
    default: return nil
    }
  }
}
