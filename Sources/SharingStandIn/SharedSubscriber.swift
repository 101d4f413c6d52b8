/// What a key's subscription gives new values, errors and loading state to.
public struct SharedSubscriber<Value>: Sendable {
  let callback: @Sendable (Result<Value?, any Error>) -> Void
  let onLoading: (@Sendable (Bool) -> Void)?

  public init(
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void,
    onLoading: (@Sendable (Bool) -> Void)? = nil
  ) {
    self.callback = callback
    self.onLoading = onLoading
  }

  public func yield(_ value: Value) { yield(with: .success(value)) }
  public func yieldLoading(_ isLoading: Bool = true) { onLoading?(isLoading) }
  public func yieldReturningInitialValue() { yield(with: .success(nil)) }
  public func yield(throwing error: any Error) { yield(with: .failure(error)) }
  public func yield(with result: Result<Value?, any Error>) { callback(result) }
}
