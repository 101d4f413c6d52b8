/// The entity position of a datalog pattern.
enum EntityTerm {
  case variable(Int)
  case entity(UInt32)
  /// A constant no entity can equal (an unknown id, a number, an object).
  case nothing
}

/// The value position of a datalog pattern: a variable, or a filter on the stored value
/// (the reference's "args map"). Indirect, so copying a pattern in the solver's inner loop is
/// one reference count, not a copy of whichever payload this holds.
indirect enum ValueTerm {
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

/// `[e, a, v, t]`. A class, so the solver passes patterns around by reference in its inner loop.
final class Pattern {
  let e: EntityTerm
  /// The attr's symbol; `nil` when the store has no triple of it (nothing matches).
  let a: UInt32?
  let v: ValueTerm
  let t: Int

  init(e: EntityTerm, a: UInt32?, v: ValueTerm, t: Int) {
    self.e = e
    self.a = a
    self.v = v
    self.t = t
  }
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
