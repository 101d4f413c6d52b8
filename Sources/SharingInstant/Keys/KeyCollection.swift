import IdentifiedCollections

/// A collection key's value: an `IdentifiedArray` of entities, or a plain array of them. The key's
/// session works on the identified form; this says how to convert, and how to tell whether the
/// reference still holds the very value the key gave it.
protocol KeyCollection: Sendable {
  associatedtype Entity: EntityIdentifiable & Equatable
  init(collection: IdentifiedArrayOf<Entity>)
  var collection: IdentifiedArrayOf<Entity> { get }
  /// Whether `a` and `b` are one buffer: an edit's closure that changed anything made a copy, since
  /// the key keeps the value it gave. (An empty value the key gives has a buffer of its own too,
  /// see `CollectionSession`; every literal `[]` shares one.)
  static func sameStorage(_ a: Self, _ b: Self) -> Bool
}

extension IdentifiedArray: KeyCollection where Element: EntityIdentifiable & Equatable, ID == Element.ID {
  typealias Entity = Element
  init(collection: IdentifiedArrayOf<Element>) { self = collection }
  var collection: IdentifiedArrayOf<Element> { self }
  static func sameStorage(_ a: Self, _ b: Self) -> Bool { Array.sameStorage(a.elements, b.elements) }
}

extension Array: KeyCollection where Element: EntityIdentifiable & Equatable {
  typealias Entity = Element
  /// Keeps the later of two entities with one id.
  init(collection: IdentifiedArrayOf<Element>) { self = collection.elements }
  var collection: IdentifiedArrayOf<Element> { IdentifiedArray(self, uniquingIDsWith: { _, later in later }) }
  static func sameStorage(_ a: Self, _ b: Self) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
  }
}
