/// Entities of a query result that did not decode into the key's Swift type. They are left out of
/// the value, logged, and reported as the key's `loadError`; never dropped silently.
public struct EntityDecodingError: Error, CustomStringConvertible, Sendable {
  /// The entities' namespace.
  public var namespace: String
  /// Each failed entity's id (or its position when it has none) and the error decoding it threw.
  public var errors: [(id: String, error: any Error)]

  /// Each failed entity's id and why it failed, in words.
  public var failures: [(id: String, reason: String)] { errors.map { ($0.id, "\($0.error)") } }

  public var description: String {
    "\(failures.count) \(namespace) entit\(failures.count == 1 ? "y" : "ies") did not decode: "
      + failures.map { "\($0.id): \($0.reason)" }.joined(separator: "; ")
  }
}
