// Cases re-expressed from google/cel-spec tests/simple/testdata/plumbing.textproto (Apache License 2.0).
// Proto-message, container and optional-syntax cases are left out: this CEL has no protobuf types.
import CEL

extension Conformance {
  /// From cel-spec `tests/simple/testdata/plumbing.textproto`.
  static let plumbing: [Case] = [
    Case("17", .value(.int(17)), "min/min_program"),
    Case("1 / 0", .error(nil), "eval_results/error_result"),
    Case("{\"k1\":\"v1\",\"k\":\"v\"}", .value(.map(CELMap([(CELMap.Key.string("k"), .string("v")), (CELMap.Key.string("k1"), .string("v1"))]))), "eval_results/eval_map_results"),
    Case("[17, 'pancakes']", .value(.list([.int(17), .string("pancakes")])), "check_inputs/skip_check"),
    Case("'foo'", .value(.string("foo")), bindings: ["x": .int(17)], "eval_inputs/one_ignored_value_arg"),
  ]
}
