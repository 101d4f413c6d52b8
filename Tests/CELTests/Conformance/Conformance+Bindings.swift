// Cases re-expressed from google/cel-spec tests/simple/testdata/bindings_ext.textproto (Apache License 2.0).
// Proto-message, container and optional-syntax cases are left out: this CEL has no protobuf types.
import CEL

extension Conformance {
  /// From cel-spec `tests/simple/testdata/bindings_ext.textproto`.
  static let bindingsExt: [Case] = [
    Case("cel.bind(t, true, t)", .value(.bool(true)), "bind/boolean_literal"),
    Case("cel.bind(msg, \"hello\", msg + msg + msg)", .value(.string("hellohellohello")), "bind/string_concat"),
    Case("cel.bind(t1, true, cel.bind(t2, true, t1 && t2))", .value(.bool(true)), "bind/bind_nested"),
    Case("cel.bind(valid_elems, [1, 2, 3], [3, 4, 5].exists(e, e in valid_elems))", .value(.bool(true)), "bind/macro_exists"),
    Case("cel.bind(valid_elems, [1, 2, 3], ![4, 5].exists(e, e in valid_elems))", .value(.bool(true)), "bind/macro_not_exists"),
    Case("cel.bind(x, 0, x == 0)", .value(.bool(true)), bindings: ["x": .int(1)], "bind/shadowing"),
  ]
}
