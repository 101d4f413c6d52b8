/// One case of a generated string enum: its Swift name and the schema value.
struct EnumCase: Hashable, Sendable {
  var name: String
  var rawValue: String
}
