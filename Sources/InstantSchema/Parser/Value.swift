/// The result of evaluating an expression, with builder calls kept symbolic for the schema
/// reader.
indirect enum Value: Sendable {
  case object([ObjectEntry], Origin)
  case array([Expression], Origin)
  case string(String, Origin)
  case number(Double, Origin)
  case boolean(Bool, Origin)
  case null(Origin)
  /// The `i` object from `@instantdb/*`.
  case builder(Origin)
  /// `import * as x from "@instantdb/…"`: `x.i` is the builder.
  case instantNamespace(Origin)
  /// `i.string`, not yet called.
  case builderMember(String, Origin)
  /// `i.string<T>(…)`.
  case builderCall(String, typeArguments: TypeArguments?, arguments: [Value], Origin)
  /// `x.optional`, not yet called.
  case boundMethod(Value, String, Origin)
  /// `x.optional(…)`.
  case methodCall(Value, String, arguments: [Value], Origin)

  var origin: Origin {
    switch self {
    case .object(_, let origin), .array(_, let origin), .string(_, let origin), .number(_, let origin),
      .boolean(_, let origin), .null(let origin), .builder(let origin), .instantNamespace(let origin),
      .builderMember(_, let origin), .builderCall(_, _, _, let origin), .boundMethod(_, _, let origin),
      .methodCall(_, _, _, let origin):
      origin
    }
  }

  /// A short description for "found …" in error messages.
  var kindDescription: String {
    switch self {
    case .object: "an object literal"
    case .array: "an array"
    case .string(let value, _): "the string \"\(value)\""
    case .number(let value, _): "the number \(value.formatted)"
    case .boolean(let value, _): "`\(value)`"
    case .null: "`null`"
    case .builder: "the `i` builder"
    case .instantNamespace: "an @instantdb module namespace"
    case .builderMember(let name, _): "`i.\(name)` without a call"
    case .builderCall(let name, _, _, _): "`i.\(name)(…)`"
    case .boundMethod(_, let name, _): "`.\(name)` without a call"
    case .methodCall(let base, let name, _, _): "\(base.kindDescription).\(name)()"
    }
  }
}

extension Double {
  var formatted: String {
    self == rounded() && Swift.abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }
}
