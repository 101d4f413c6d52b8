import IdentifiedCollections
import InstantCore

/// Seams for tests that force an interleaving of a server result with a `withLock` edit (no
/// sleeps, no luck): each hook runs on the thread doing the work, so a test can block it until
/// the other side has reached a given point. Unset in apps.
package struct CollectionSessionHooks<Entity: EntityIdentifiable & Equatable>: Sendable {
  package typealias Value = IdentifiedArrayOf<Entity>
  /// A value is about to be given to the `@Shared` (called before the reference takes it).
  package var willShow: (@Sendable (Value) -> Void)?
  /// A value was given to the `@Shared` (the reference holds it).
  package var didShow: (@Sendable (Value) -> Void)?
  /// `withLock` called the key's `save` with an edited value, before the key looks at it.
  package var willSave: (@Sendable (Value) -> Void)?
  /// The key is about to queue these writes of its edits.
  package var willWrite: (@Sendable ([InstaMLOp]) -> Void)?
  /// The deliberately broken key, for tests and `instant-chaos keys --naive` to show their checks
  /// can fail: values go in plainly, never under the reference's lock, and an edit is diffed against
  /// the value the key gave last, whatever the edit started from.
  package var unexchanged = false

  package init(unexchanged: Bool = false) { self.unexchanged = unexchanged }
}
