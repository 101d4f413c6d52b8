/// A key that loads and observes a value stored outside of `@SharedReader`: the stand-in for
/// Sharing's protocol of the same name, with the same requirements.
public protocol SharedReaderKey<Value>: Sendable {
  /// The type of value the key reads.
  associatedtype Value: Sendable
  /// What makes two keys share one reference; two keys with equal ids are one value in the app.
  associatedtype ID: Hashable = Self

  /// The key's identity.
  var id: ID { get }

  /// Loads the value once; the continuation is resumed exactly once.
  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>)

  /// Starts observing the stored value; the subscriber is given every change until the
  /// subscription is cancelled.
  func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription
}

extension SharedReaderKey where ID == Self {
  public var id: ID { self }
}
