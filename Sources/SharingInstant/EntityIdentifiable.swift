/// A Swift value that mirrors one entity of an InstantDB namespace.
///
/// Generated entity structs conform to it so that keys and mutations can find their namespace
/// without a string at the call site. InstantDB entity ids are lower-case UUID strings.
public protocol EntityIdentifiable: Identifiable, Codable, Sendable where ID == String {
  /// The InstantDB namespace the entity lives in, for example `"todos"` or `"$users"`.
  static var namespace: String { get }

  /// The schema's name for the attribute or link a key path names, when it is not the Swift
  /// property's name (`\.createdAt` → `"created_at"`); `nil` uses the property's name.
  static func instantAttributeName(for keyPath: PartialKeyPath<Self>) -> String?
}

extension EntityIdentifiable {
  public static func instantAttributeName(for keyPath: PartialKeyPath<Self>) -> String? { nil }
}
