// Cases re-expressed from google/cel-spec tests/simple/testdata/lists.textproto (Apache License 2.0).
// Proto-message, container and optional-syntax cases are left out: this CEL has no protobuf types.
import CEL

extension Conformance {
  /// From cel-spec `tests/simple/testdata/lists.textproto`.
  static let lists: [Case] = [
    Case("[0, 1, 2] + [3, 4, 5] == [0, 1, 2, 3, 4, 5]", .value(.bool(true)), "concatenation/list_append"),
    Case("[0, 1, 2] + [3, 4, 5] == [3, 4, 5, 0, 1, 2]", .value(.bool(false)), "concatenation/list_not_commutative"),
    Case("[2] + [2]", .value(.list([.int(2), .int(2)])), "concatenation/list_repeat"),
    Case("[] + []", .value(.list([])), "concatenation/empty_empty"),
    Case("[] + [3, 4]", .value(.list([.int(3), .int(4)])), "concatenation/left_unit"),
    Case("[1, 2] + []", .value(.list([.int(1), .int(2)])), "concatenation/right_unit"),
    Case("[7, 8, 9][0]", .value(.int(7)), "index/zero_based"),
    Case("[7, 8, 9][dyn(0.0)]", .value(.int(7)), "index/zero_based_double"),
    Case("[7, 8, 9][dyn(0.1)]", .error(nil), "index/zero_based_double_error"),
    Case("[7, 8, 9][dyn(0u)]", .value(.int(7)), "index/zero_based_uint"),
    Case("['foo'][0]", .value(.string("foo")), "index/singleton"),
    Case("[0, 1, 1, 2, 3, 5, 8, 13][4]", .value(.int(3)), "index/middle"),
    Case("['George', 'John', 'Paul', 'Ringo'][3]", .value(.string("Ringo")), "index/last"),
    Case("[1, 2, 3][3]", .error(nil), "index/index_out_of_bounds"),
    Case("dyn([1, 2, 3][3]) || false", .error(nil), "index/index_out_of_bounds_or_false"),
    Case("dyn([1, 2, 3][3]) || true", .value(.bool(true)), "index/index_out_of_bounds_or_true"),
    Case("dyn([1, 2, 3][3]) && false", .value(.bool(false)), "index/index_out_of_bounds_and_false"),
    Case("dyn([1, 2, 3][3]) && true", .error(nil), "index/index_out_of_bounds_and_true"),
    Case("[1, 2, 3][dyn('')]", .error(nil), "index/bad_index_type"),
    Case("dyn([1, 2, 3][dyn('')]) || false", .error(nil), "index/bad_index_type_or_false"),
    Case("dyn([1, 2, 3][dyn('')]) || true", .value(.bool(true)), "index/bad_index_type_or_true"),
    Case("dyn([1, 2, 3][dyn('')]) && false", .value(.bool(false)), "index/bad_index_type_and_false"),
    Case("dyn([1, 2, 3][dyn('')]) && true", .error(nil), "index/bad_index_type_and_true"),
    Case("7 in []", .value(.bool(false)), "in/empty"),
    Case("4u in [4u]", .value(.bool(true)), "in/singleton"),
    Case("'alpha' in ['alpha', 'beta', 'gamma']", .value(.bool(true)), "in/first"),
    Case("3 in [5, 4, 3, 2, 1]", .value(.bool(true)), "in/middle"),
    Case("20u in [4u, 6u, 8u, 12u, 20u]", .value(.bool(true)), "in/last"),
    Case("dyn(3.0) in [5, 4, 3, 2, 1]", .value(.bool(true)), "in/double_in_ints"),
    Case("dyn(3u) in [5, 4, 3, 2, 1]", .value(.bool(true)), "in/uint_in_ints"),
    Case("dyn(3) in [5.0, 4.0, 3.0, 2.0, 1.0]", .value(.bool(true)), "in/int_in_doubles"),
    Case("dyn(3u) in [5.0, 4.0, 3.0, 2.0, 1.0]", .value(.bool(true)), "in/uint_in_doubles"),
    Case("dyn(3) in [5u, 4u, 3u, 2u, 1u]", .value(.bool(true)), "in/int_in_uints"),
    Case("dyn(3.0) in [5u, 4u, 3u, 2u, 1u]", .value(.bool(true)), "in/double_in_uints"),
    Case("'hawaiian' in ['meat', 'veggie', 'margarita', 'cheese']", .value(.bool(false)), "in/missing"),
    Case("size([])", .value(.int(0)), "size/list_empty"),
    Case("size([1, 2, 3])", .value(.int(3)), "size/list"),
    Case("size({})", .value(.int(0)), "size/map_empty"),
    Case("size({1: 'one', 2: 'two', 3: 'three'})", .value(.int(3)), "size/map"),
  ]
}
