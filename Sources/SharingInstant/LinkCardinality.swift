/// How many entities one side of a link refers to.
public enum LinkCardinality: String, Sendable, Hashable, Codable {
  case one
  case many
}
