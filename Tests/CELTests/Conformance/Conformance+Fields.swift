// Cases re-expressed from google/cel-spec tests/simple/testdata/fields.textproto (Apache License 2.0).
// Proto-message, container and optional-syntax cases are left out: this CEL has no protobuf types.
import CEL

extension Conformance {
  /// From cel-spec `tests/simple/testdata/fields.textproto`.
  static let fields: [Case] = [
    Case("{0:1,2:2,5:true}[5]", .value(.bool(true)), "map_fields/map_key_int64"),
    Case("{0u:1u,2u:'happy',5u:3u}[2u]", .value(.string("happy")), "map_fields/map_key_uint64"),
    Case("{'name':100u}['name']", .value(.uint(100)), "map_fields/map_key_string"),
    Case("{true:5}[true]", .value(.int(5)), "map_fields/map_key_bool"),
    Case("{true:1,2:2,5u:3}[true]", .value(.int(1)), "map_fields/map_key_mixed_type"),
    Case("{1u: 1.0, 2: 2.0, 3u: 3.0}[3.0]", .value(.double(3.0)), "map_fields/map_key_mixed_numbers_double_key"),
    Case("{1u: 1.0, 2: 2.0, 3u: 3.0}[3.1]", .error(nil), "map_fields/map_key_mixed_numbers_lossy_double_key"),
    Case("{1u: 1.0, 2: 2.0, 3u: 3.0}[2u]", .value(.double(2.0)), "map_fields/map_key_mixed_numbers_uint_key"),
    Case("{1u: 1.0, 2: 2.0, 3u: 3.0}[1]", .value(.double(1.0)), "map_fields/map_key_mixed_numbers_int_key"),
    Case("x.name", .value(.int(1024)), bindings: ["x": .map(CELMap([(CELMap.Key.string("name"), .int(1024))]))], "map_fields/map_field_access"),
    Case("{0:1,2:2,5:3}[1]", .error(nil), "map_fields/map_no_such_key"),
    Case("dyn({0:1,2:2,5:3}[1]) || false", .error(nil), "map_fields/map_no_such_key_or_false"),
    Case("dyn({0:1,2:2,5:3}[1]) || true", .value(.bool(true)), "map_fields/map_no_such_key_or_true"),
    Case("dyn({0:1,2:2,5:3}[1]) && false", .value(.bool(false)), "map_fields/map_no_such_key_and_false"),
    Case("dyn({0:1,2:2,5:3}[1]) && true", .error(nil), "map_fields/map_no_such_key_and_true"),
    Case("{0:1,2:2,5:3}[dyn(b'')]", .error(nil), "map_fields/map_bad_key_type"),
    Case("dyn({0:1,2:2,5:3}[dyn(b'')]) || false", .error(nil), "map_fields/map_bad_key_type_or_false"),
    Case("dyn({0:1,2:2,5:3}[dyn(b'')]) || true", .value(.bool(true)), "map_fields/map_bad_key_type_or_true"),
    Case("dyn({0:1,2:2,5:3}[dyn(b'')]) && false", .value(.bool(false)), "map_fields/map_bad_key_type_and_false"),
    Case("dyn({0:1,2:2,5:3}[dyn(b'')]) && true", .error(nil), "map_fields/map_bad_key_type_and_true"),
    Case("x.name", .error(nil), bindings: ["x": .map(CELMap([(CELMap.Key.string("holiday"), .string("field"))]))], "map_fields/map_field_select_no_such_key"),
    Case("dyn(x.name) || false", .error(nil), bindings: ["x": .map(CELMap([(CELMap.Key.string("holiday"), .string("field"))]))], "map_fields/map_field_select_no_such_key_or_false"),
    Case("dyn(x.name) || true", .value(.bool(true)), bindings: ["x": .map(CELMap([(CELMap.Key.string("holiday"), .string("field"))]))], "map_fields/map_field_select_no_such_key_or_true"),
    Case("dyn(x.name) && false", .value(.bool(false)), bindings: ["x": .map(CELMap([(CELMap.Key.string("holiday"), .string("field"))]))], "map_fields/map_field_select_no_such_key_and_false"),
    Case("dyn(x.name) && true", .error(nil), bindings: ["x": .map(CELMap([(CELMap.Key.string("holiday"), .string("field"))]))], "map_fields/map_field_select_no_such_key_and_true"),
    Case("{true:null}[true]", .value(.null), "map_fields/map_value_null"),
    Case("{27:false}[27]", .value(.bool(false)), "map_fields/map_value_bool"),
    Case("{'n':'x'}['n']", .value(.string("x")), "map_fields/map_value_string"),
    Case("{3:15.15}[3]", .value(.double(15.15)), "map_fields/map_value_float"),
    Case("{0u:1u,2u:2u,5u:3u}[0u]", .value(.uint(1)), "map_fields/map_value_uint64"),
    Case("{true:1,false:2}[true]", .value(.int(1)), "map_fields/map_value_int64"),
    Case("{0:b''}[0]", .value(.bytes([])), "map_fields/map_value_bytes"),
    Case("{0u:[1]}[0u]", .value(.list([.int(1)])), "map_fields/map_value_list"),
    Case("{'map': {'k': 'v'}}['map']", .value(.map(CELMap([(CELMap.Key.string("k"), .string("v"))]))), "map_fields/map_value_map"),
    Case("{'map': {'k': 'v'}, 'list': [1]}['map']", .value(.map(CELMap([(CELMap.Key.string("k"), .string("v"))]))), "map_fields/map_value_mix_type"),
    Case("has({'a': 1, 'b': 2}.a)", .value(.bool(true)), "map_has/has"),
    Case("has({'a': 1, 'b': 2}.c)", .value(.bool(false)), "map_has/has_not"),
    Case("has({}.a)", .value(.bool(false)), "map_has/has_empty"),
    // Differs: backquoted field names are newer than cel-java 0.11.1 (InstantDB's version) and not supported.
    Case("{'/api/v1': true, '/api/v2': false}.`/api/v1`", .parseError, "quoted_map_fields/field_access_slash"),
    // Differs: backquoted field names are newer than cel-java 0.11.1 (InstantDB's version) and not supported.
    Case("{'content-type': 'application/json', 'content-length': 145}.`content-type` == 'application/json'", .parseError, "quoted_map_fields/field_access_dash"),
    // Differs: backquoted field names are newer than cel-java 0.11.1 (InstantDB's version) and not supported.
    Case("{'foo.txt': 32, 'bar.csv': 1024}.`foo.txt`", .parseError, "quoted_map_fields/field_access_dot"),
    // Differs: backquoted field names are newer than cel-java 0.11.1 (InstantDB's version) and not supported.
    Case("has({'/api/v1': true, '/api/v2': false}.`/api/v3`)", .parseError, "quoted_map_fields/has_field_slash"),
    // Differs: backquoted field names are newer than cel-java 0.11.1 (InstantDB's version) and not supported.
    Case("has({'content-type': 'application/json', 'content-length': 145}.`content-type`)", .parseError, "quoted_map_fields/has_field_dash"),
    // Differs: backquoted field names are newer than cel-java 0.11.1 (InstantDB's version) and not supported.
    Case("has({'foo.txt': 32, 'bar.csv': 1024}.`foo.txt`)", .parseError, "quoted_map_fields/has_field_dot"),
    Case("a.b.c", .value(.string("yeah")), bindings: ["a.b.c": .string("yeah")], "qualified_identifier_resolution/qualified_ident"),
    Case("a.b.c", .value(.string("yeah")), bindings: ["a.b": .map(CELMap([(CELMap.Key.string("c"), .string("yeah"))]))], "qualified_identifier_resolution/map_field_select"),
    Case("a.b.c", .value(.string("yeah")), bindings: ["a.b.c": .string("yeah"), "a.b": .map(CELMap([(CELMap.Key.string("c"), .string("oops"))]))], "qualified_identifier_resolution/qualified_identifier_resolution_unchecked"),
    Case("a.b.pancakes", .error(nil), bindings: ["a.b": .list([.string("pancakes")])], "qualified_identifier_resolution/list_field_select_unsupported"),
    Case("a.pancakes", .error(nil), bindings: ["a": .int(15)], "qualified_identifier_resolution/int64_field_select_unsupported"),
    Case("a.b.c", .value(.string("yeah")), bindings: ["a.b.c": .string("yeah"), "a.b": .map(CELMap([(CELMap.Key.string("c"), .string("oops"))]))], "qualified_identifier_resolution/ident_with_longest_prefix_check"),
    Case("{3.3:15.15, 1.0: 5}[1.0]", .error(nil), "qualified_identifier_resolution/map_key_float"),
    Case("{null:false}[null]", .error(nil), "qualified_identifier_resolution/map_key_null"),
    Case("{true:1,false:2,true:3}[true]", .error(nil), "qualified_identifier_resolution/map_value_repeat_key"),
    Case("{0: 1, 0u: 2}[0.0]", .error(nil), "qualified_identifier_resolution/map_value_repeat_key_heterogeneous"),
    Case("7 in {}", .value(.bool(false)), "in/empty"),
    Case("true in {true: 1}", .value(.bool(true)), "in/singleton"),
    Case("'George' in {'John': 'smart', 'Paul': 'cute', 'George': 'quiet', 'Ringo': 'funny'}", .value(.bool(true)), "in/present"),
    Case("'spider' in {'ant': 6, 'fly': 6, 'centipede': 100}", .value(.bool(false)), "in/absent"),
    Case("3.0 in {1: 1, 2: 2, 3u: 3} && 2u in {1u: 1, 2: 2} && 1 in {1u: 1, 2: 2}", .value(.bool(true)), "in/mixed_numbers_and_keys_present"),
    Case("3.1 in {1: 1, 2: 2, 3u: 3}", .value(.bool(false)), "in/mixed_numbers_and_keys_absent"),
  ]
}
