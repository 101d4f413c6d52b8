/// A condition on one attribute in `where`, with the InstaQL form it is sent as.
public struct EntityKeyPredicate: Sendable, Hashable {
  /// The value the attribute is compared with in the `where` object.
  public let instaQL: JSON

  init(_ instaQL: JSON) { self.instaQL = instaQL }

  public static func eq(_ value: some InstantValueConvertible) -> Self { Self(value.instantValue) }
  public static func neq(_ value: some InstantValueConvertible) -> Self { Self(["$ne": value.instantValue]) }
  public static func gt(_ value: some InstantValueConvertible) -> Self { Self(["$gt": value.instantValue]) }
  public static func gte(_ value: some InstantValueConvertible) -> Self { Self(["$gte": value.instantValue]) }
  public static func lt(_ value: some InstantValueConvertible) -> Self { Self(["$lt": value.instantValue]) }
  public static func lte(_ value: some InstantValueConvertible) -> Self { Self(["$lte": value.instantValue]) }
  public static func `in`(_ values: [some InstantValueConvertible]) -> Self {
    Self(["$in": .array(values.map(\.instantValue))])
  }
  /// SQL `LIKE`, case-sensitive: `%` matches any run of characters.
  public static func like(_ pattern: String) -> Self { Self(["$like": .string(pattern)]) }
  /// SQL `ILIKE`, case-insensitive.
  public static func ilike(_ pattern: String) -> Self { Self(["$ilike": .string(pattern)]) }
  /// The attribute is missing or null (`true`), or present (`false`).
  public static func isNull(_ isNull: Bool = true) -> Self { Self(["$isNull": .bool(isNull)]) }
  /// Case-insensitive substring match.
  public static func contains(_ text: String) -> Self { ilike("%\(text)%") }
  public static func startsWith(_ text: String) -> Self { ilike("\(text)%") }
  public static func endsWith(_ text: String) -> Self { ilike("%\(text)") }
}
