import Foundation
import IssueReporting

/// Holds a one-shot callback; resuming twice, or never, is reported as the programmer error it is.
final class ContinuationBox<Value>: Sendable {
  // The callback is only read and cleared under `lock`.
  private nonisolated(unsafe) var callback: (@Sendable (Result<Value?, any Error>) -> Void)?
  private let lock = NSLock()
  private let description: @Sendable () -> String

  init(callback: @escaping @Sendable (Result<Value?, any Error>) -> Void, description: @escaping @Sendable () -> String) {
    self.callback = callback
    self.description = description
  }

  deinit {
    if let callback {
      reportIssue("\(description()) leaked its continuation without resuming it.")
      callback(.success(nil))
    }
  }

  func resume(with result: Result<Value?, any Error>) {
    let callback = lock.withLock {
      defer { self.callback = nil }
      return self.callback
    }
    guard let callback else {
      reportIssue("\(description()) tried to resume its continuation more than once.")
      return
    }
    callback(result)
  }
}

func continuationDescription(_ description: String) -> String {
  description.isEmpty ? "A shared key" : "'\(description)'"
}
