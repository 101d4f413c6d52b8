/// A type the generator declares inside an entity, presence or topic struct.
indirect enum NestedType: Hashable, Sendable {
  /// A string enum with an `unknown(String)` case for values added after generation.
  case enumeration(name: String, cases: [EnumCase], documentation: String?)
  /// A struct for an inline object type.
  case structure(name: String, fields: [FieldPlan], nested: [NestedType], documentation: String?)

  var name: String {
    switch self {
    case .enumeration(let name, _, _), .structure(let name, _, _, _): name
    }
  }
}
