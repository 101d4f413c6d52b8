/// Sort direction for `orderBy`.
public enum EntityKeyOrderDirection: String, Sendable, Hashable {
  case asc, desc
}
