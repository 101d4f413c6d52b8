/// How many values an attribute holds for one entity, or how many entities one side of a link
/// refers to: the `cardinality` of an attr on the wire, the `has` of a link in a schema.
///
/// One type for all of them, so that a schema read by instant-schema, a link in generated code,
/// an attr the server stores and a link the client's InstaML creates cannot disagree on spelling.
public enum Cardinality: String, Sendable, Hashable, Codable, CaseIterable {
  case one
  case many
}
