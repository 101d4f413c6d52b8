/// Resumes a save exactly once: stored, or failed.
public struct SaveContinuation: Sendable {
  private let box: ContinuationBox<Never>

  public init(
    _ description: @autoclosure @escaping @Sendable () -> String = "",
    callback: @escaping @Sendable (Result<Never?, any Error>) -> Void
  ) {
    box = ContinuationBox(callback: callback, description: { continuationDescription(description()) })
  }

  public func resume() { resume(with: .success(())) }
  public func resume(throwing error: any Error) { resume(with: .failure(error)) }
  public func resume(with result: Result<Void, any Error>) { box.resume(with: result.map { nil }) }
}
