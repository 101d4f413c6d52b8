/// Resumes a load exactly once: with a value, with an error, or with "keep the initial value".
public struct LoadContinuation<Value>: Sendable {
  private let box: ContinuationBox<Value>

  public init(
    _ description: @autoclosure @escaping @Sendable () -> String = "",
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void
  ) {
    box = ContinuationBox(callback: callback, description: { continuationDescription(description()) })
  }

  public func resume(returning value: Value) { resume(with: .success(value)) }
  public func resume(throwing error: any Error) { resume(with: .failure(error)) }
  public func resumeReturningInitialValue() { resume(with: .success(nil)) }
  public func resume(with result: Result<Value?, any Error>) { box.resume(with: result) }
}
