import InstantDB

/// What makes two collection keys one shared value: the same client, the same query, the same kind.
public struct InstantKeyID: Hashable, Sendable {
  let client: ObjectIdentifier
  let query: JSON
  let kind: String

  init(client: InstantClient, query: JSON, kind: String) {
    self.client = ObjectIdentifier(client)
    self.query = query
    self.kind = kind
  }
}
