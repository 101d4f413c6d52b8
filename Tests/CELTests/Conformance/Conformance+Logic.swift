// Cases re-expressed from google/cel-spec tests/simple/testdata/logic.textproto (Apache License 2.0).
// Proto-message, container and optional-syntax cases are left out: this CEL has no protobuf types.
import CEL

extension Conformance {
  /// From cel-spec `tests/simple/testdata/logic.textproto`.
  static let logic: [Case] = [
    Case("true ? 1 : 2", .value(.int(1)), "conditional/true_case"),
    Case("false ? 'foo' : 'bar'", .value(.string("bar")), "conditional/false_case"),
    Case("2 / 0 > 4 ? 'baz' : 'quux'", .error(nil), "conditional/error_case"),
    Case("true ? 'cows' : 17", .value(.string("cows")), "conditional/mixed_type"),
    Case("'cows' ? false : 17", .error(nil), "conditional/bad_type"),
    Case("true && true", .value(.bool(true)), "AND/all_true"),
    Case("false && false", .value(.bool(false)), "AND/all_false"),
    Case("false && true", .value(.bool(false)), "AND/false_left"),
    Case("true && false", .value(.bool(false)), "AND/false_right"),
    Case("false && 32", .value(.bool(false)), "AND/short_circuit_type_left"),
    Case("'horses' && false", .value(.bool(false)), "AND/short_circuit_type_right"),
    Case("false && (2 / 0 > 3 ? false : true)", .value(.bool(false)), "AND/short_circuit_error_left"),
    Case("(2 / 0 > 3 ? false : true) && false", .value(.bool(false)), "AND/short_circuit_error_right"),
    Case("true && 1/0 != 0", .error(nil), "AND/error_right"),
    Case("1/0 != 0 && true", .error(nil), "AND/error_left"),
    Case("'less filling' && 'tastes great'", .error(nil), "AND/no_overload"),
    Case("true || true", .value(.bool(true)), "OR/all_true"),
    Case("false || false", .value(.bool(false)), "OR/all_false"),
    Case("false || true", .value(.bool(true)), "OR/false_left"),
    Case("true || false", .value(.bool(true)), "OR/false_right"),
    Case("true || 32", .value(.bool(true)), "OR/short_circuit_type_left"),
    Case("'horses' || true", .value(.bool(true)), "OR/short_circuit_type_right"),
    Case("true || (2 / 0 > 3 ? false : true)", .value(.bool(true)), "OR/short_circuit_error_left"),
    Case("(2 / 0 > 3 ? false : true) || true", .value(.bool(true)), "OR/short_circuit_error_right"),
    Case("false || 1/0 != 0", .error(nil), "OR/error_right"),
    Case("1/0 != 0 || false", .error(nil), "OR/error_left"),
    Case("'less filling' || 'tastes great'", .error(nil), "OR/no_overload"),
    Case("!true", .value(.bool(false)), "NOT/not_true"),
    Case("!false", .value(.bool(true)), "NOT/not_false"),
    Case("!0", .error(nil), "NOT/no_overload"),
  ]
}
