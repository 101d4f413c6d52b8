// Cases re-expressed from google/cel-spec tests/simple/testdata/fp_math.textproto (Apache License 2.0).
// Proto-message, container and optional-syntax cases are left out: this CEL has no protobuf types.
import CEL

extension Conformance {
  /// From cel-spec `tests/simple/testdata/fp_math.textproto`.
  static let fpMath: [Case] = [
    Case("4.25 + 15.25", .value(.double(19.5)), "fp_math/add_positive_positive"),
    Case("17.75 + (-7.75)", .value(.double(10.0)), "fp_math/add_positive_negative"),
    Case("-4.125 + (-2.125)", .value(.double(-6.25)), "fp_math/add_negative_negative"),
    Case("42.0 - 12.0", .value(.double(30.0)), "fp_math/sub_positive_positive"),
    Case("42.875 - (-22.0)", .value(.double(64.875)), "fp_math/sub_positive_negative"),
    Case("-4.875 - (-0.125)", .value(.double(-4.75)), "fp_math/sub_negative_negative"),
    Case("42.5 * 0.2", .value(.double(8.5)), "fp_math/multiply_positive_positive"),
    Case("40.75 * (-2.25)", .value(.double(-91.6875)), "fp_math/multiply_positive_negative"),
    Case("-3.0 * (-2.5)", .value(.double(7.5)), "fp_math/multiply_negative_negative"),
    Case("0.0625 / 0.002", .value(.double(31.25)), "fp_math/divide_positive_positive"),
    Case("-2.0 / 2.0", .value(.double(-1.0)), "fp_math/divide_positive_negative"),
    Case("-8.875 / (-0.0625)", .value(.double(142.0)), "fp_math/divide_negative_negative"),
    Case("47.5 % 5.5", .error(nil), "fp_math/mod_not_support"),
    Case("-(4.5)", .value(.double(-4.5)), "fp_math/negative"),
    Case("-(-1.25)", .value(.double(1.25)), "fp_math/double_negative"),
    Case("-(0.0)", .value(.double(-0.0)), "fp_math/negative_zero"),
    Case("15.75 / 0.0", .value(.double(.infinity)), "fp_math/divide_zero"),
    Case("15.36 * 0.0", .value(.double(0.0)), "fp_math/multiply_zero"),
    Case("0.0 + 1.75", .value(.double(1.75)), "fp_math/add_left_identity"),
    Case(" 2.5 + 0.0", .value(.double(2.5)), "fp_math/add_right_identity"),
    Case("7.5 + 1.5 == 1.5 + 7.5", .value(.bool(true)), "fp_math/add_commutative"),
    Case("5.625 + (15.75 + 2.0) == (5.625 + 15.75) + 2.0", .value(.bool(true)), "fp_math/add_associative"),
    Case("1.0 * 45.25", .value(.double(45.25)), "fp_math/mul_left_identity"),
    Case("-25.25 * 1.0", .value(.double(-25.25)), "fp_math/mul_right_identity"),
    Case("1.5 * 25.875 == 25.875 * 1.5", .value(.bool(true)), "fp_math/mul_commutative"),
    Case("1.5 * (23.625 * 0.75) == (1.5 * 23.625) * 0.75", .value(.bool(true)), "fp_math/mul_associative"),
    Case("5.75 * (1.5 + 2.5)  == 5.75 * 1.5 + 5.75 * 2.5", .value(.bool(true)), "fp_math/add_mul_distribute"),
    Case("2.0 * 8.988466e+307 ", .value(.double(.infinity)), "fp_math/fp_overflow_positive"),
    Case("2.0 * -8.988466e+307 ", .value(.double(-.infinity)), "fp_math/fp_overflow_negative"),
    Case("1e-324  / 2.0", .value(.double(0.0)), "fp_math/fp_underflow"),
  ]
}
