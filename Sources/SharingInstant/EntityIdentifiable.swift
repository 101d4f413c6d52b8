/// A Swift value that mirrors one entity of an InstantDB namespace.
///
/// Generated entity structs conform to it so that keys and mutations can find their namespace
/// without a string at the call site. InstantDB entity ids are lower-case UUID strings.
///
/// This is the interim home of the type while SharingInstant is built out; the generated code
/// only relies on the members declared here.
public protocol EntityIdentifiable: Identifiable, Codable, Sendable where ID == String {
  /// The InstantDB namespace the entity lives in, for example `"todos"` or `"$users"`.
  static var namespace: String { get }
}
