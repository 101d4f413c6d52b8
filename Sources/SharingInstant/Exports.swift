// SharingInstant's values are InstantCore's, so a value means the same thing in a generated
// model, in the client and on the server. App code and generated code import SharingInstant
// only; these re-exports make the value types visible through it without the rest of InstantCore.
// Each is a scoped import so that targets with the `MemberImportVisibility` feature (on in new
// Xcode projects) can use the types' members, `JSONObject`'s literal and subscript included.

/// Any JSON value: the Swift type of `i.json()` and `i.any()` attributes.
@_exported import enum InstantCore.JSON
/// The members of a JSON object, in insertion order.
@_exported import typealias InstantCore.JSONObject
/// `one` or `many`: how many entities a side of a link refers to.
@_exported import enum InstantCore.Cardinality
/// The collection behind ``JSONObject``.
@_exported import struct OrderedCollections.OrderedDictionary

// Sharing: Point-Free's swift-sharing with the `PointFreeSharing` trait, else the stand-in that
// mirrors its API. This is the only place that chooses; every other file uses the names alone.
#if PointFreeSharing
  @_spi(References) @_exported import Sharing
#else
  @_spi(References) @_exported import SharingStandIn
#endif

/// A collection key's weak hold on the reference behind its `@Shared`: Sharing's
/// `Shared.reference`, public under its `References` SPI, which is why this lives beside the import.
/// Taking the reference's own lock is what lets a key give it a value and see what it holds in one
/// step, with no edit's closure in between (see `CollectionSession`).
final class HeldReference<Value>: @unchecked Sendable {
  // Set once in `init`; a weak reference is read atomically.
  private weak var reference: (any MutableReference<Value>)?

  init(_ shared: Shared<Value>) { reference = shared.reference }

  /// The value the reference holds (read under its lock); `nil` when it is gone.
  var value: Value? { reference?.wrappedValue }

  /// Runs `body` on the value under the reference's lock (Sharing then saves through the key, as
  /// after any `withLock`); false, without running it, when the reference is gone.
  func withLock(_ body: (inout Value) -> Void) -> Bool {
    guard let reference else { return false }
    reference.withLock(body)
    return true
  }
}

// Whole modules where the module is the API an app codes against: Sharing (or its stand-in) is
// `@Shared` itself, as `import Sharing` gives it to swift-sharing's users, and InstantDB is the
// client the keys are built on (`InstantClient`, its errors, status, auth and rooms), which an app
// configures and observes directly.
@_exported import InstantDB

// Only what an app uses of the rest: the dependency that names the client, and the collection type
// of every collection key.
@_exported import struct Dependencies.Dependency
@_exported import struct Dependencies.DependencyValues
@_exported import protocol Dependencies.DependencyKey
@_exported import func Dependencies.prepareDependencies
@_exported import func Dependencies.withDependencies
@_exported import struct IdentifiedCollections.IdentifiedArray
@_exported import typealias IdentifiedCollections.IdentifiedArrayOf
