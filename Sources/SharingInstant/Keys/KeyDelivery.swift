import Foundation

/// How a collection key hands a new value to its `@Shared`: at once, or — where SwiftUI can be
/// imported — on the main queue inside `withAnimation`, so a list animates the rows that the
/// server or another device changed (`.instantSync(Schema.todos, animation: .default)`).
///
/// The only place that knows SwiftUI: the keys hold a `KeyDelivery` and call ``deliver(_:)``.
struct KeyDelivery: Sendable {
  let deliver: @Sendable (_ yield: @escaping @Sendable () -> Void) -> Void

  /// Values go to the subscriber as they come, on the thread they come on.
  static let immediate = KeyDelivery { $0() }
}

#if canImport(SwiftUI)
  import SwiftUI

  extension KeyDelivery {
    /// Values go to the subscriber on the main queue, in order, inside `withAnimation(animation)`.
    /// (Compiled on Apple platforms only; this project's machines build the `immediate` path.)
    static func animation(_ animation: Animation) -> KeyDelivery {
      KeyDelivery { yield in
        DispatchQueue.main.async {
          MainActor.assumeIsolated { withAnimation(animation) { yield() } }
        }
      }
    }
  }

  extension SharedReaderKey {
    /// ``instantSync(_:client:)`` whose changes from the server and other devices reach the view
    /// inside `withAnimation(animation)`.
    public static func instantSync<Entity>(
      _ key: EntityKey<Entity>, client: InstantClient? = nil, animation: Animation
    ) -> Self where Self == InstantSyncKey<Entity>.Default {
      Self[InstantSyncKey(key, client: client, delivery: .animation(animation)), default: []]
    }

    /// ``instantQuery(_:client:)`` whose changes reach the view inside `withAnimation(animation)`.
    public static func instantQuery<Entity>(
      _ key: EntityKey<Entity>, client: InstantClient? = nil, animation: Animation
    ) -> Self where Self == InstantQueryKey<Entity>.Default {
      Self[InstantQueryKey(base: InstantSyncKey(key, client: client, kind: "query", delivery: .animation(animation), writable: false)), default: []]
    }
  }
#endif
