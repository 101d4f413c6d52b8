extension SharedReaderKey {
  /// A key paired with a default value, written `.Default[key, default: value]`, so that
  /// `@Shared(.myKey) var value` needs no initial value at the use site.
  public typealias Default = _SharedKeyDefault<Self>
}

/// A key with a default value; see ``SharedReaderKey/Default``.
public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
  let base: Base
  let defaultValue: @Sendable () -> Base.Value

  public var id: Base.ID { base.id }

  /// The value used until the key has loaded.
  public var initialValue: Base.Value { defaultValue() }

  public static subscript(_ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value) -> Self {
    Self(base: key, defaultValue: value)
  }

  public func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
    base.load(context: context, continuation: continuation)
  }

  public func subscribe(context: LoadContext<Base.Value>, subscriber: SharedSubscriber<Base.Value>) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {
  public func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }
}
