/// The entity position of a datalog pattern.
enum EntityTerm {
  case variable(Int)
  case entity(UInt32)
  /// A constant no entity can equal (an unknown id, a number, an object).
  case nothing
}

/// The value position of a datalog pattern: a variable, or a filter on the stored value
/// (the reference's "args map").
enum ValueTerm {
  case variable(Int)
  /// Equal to one of these keys (`[]` matches nothing).
  case equals([ValueKey])
  /// Not `===` the operand; `nil` when no stored value can equal it (everything passes).
  case not(ValueKey?)
  /// On the id attr: whether `attr` is missing/null on the candidate (or, reversed, whether
  /// nothing points at it). `attr` is `nil` when the store has never held it.
  case isNull(attr: UInt32?, isNull: Bool, reverse: Bool)
  case compare(ValuePredicate)
  /// A plain object operand: matches nothing.
  case nothing
  /// An operand JavaScript fails on as soon as it meets a stored value.
  case failing(InstaQLError)
}

/// A predicate over a stored value (`$gt`, `$like`, …).
struct ValuePredicate {
  let test: (JSValue) -> Bool
}

/// `[e, a, v, t]`.
struct Pattern {
  var e: EntityTerm
  /// The attr's symbol; `nil` when the store has no triple of it (nothing matches).
  var a: UInt32?
  var v: ValueTerm
  var t: Int
}

/// A where clause after compilation.
indirect enum Clause {
  case pattern(Pattern)
  /// Any branch (each a conjunction). `join` is the entity variable every branch shares.
  case or([[Clause]], join: Int)

  var pattern: Pattern? { if case let .pattern(p) = self { return p } else { return nil } }
}

/// Why a form's result is empty or the query fails.
enum QueryFailure: Error {
  /// An unknown attr or label: the reference swallows this per form (empty result).
  case attrNotFound(String)
  /// Anything else escapes `query()`.
  case error(InstaQLError)

  /// The error `query()` throws.
  var instaQLError: InstaQLError {
    switch self {
    case let .attrNotFound(message):
      InstaQLError(kind: .attrNotFound, message: message, description: message)
    case let .error(error): error
    }
  }
}
