import InstantCore

/// Messages a test socket received, taken one at a time with a timeout.
actor Mailbox {
  private var queue: [JSON] = []
  private var waiter: (id: Int, continuation: CheckedContinuation<JSON?, Never>)?
  /// The waiter's timeout, cancelled when a message or the close comes first (it sleeps for the
  /// suite's backstop, and one is started per wait).
  private var timer: Task<Void, Never>?
  private var nextID = 0
  private(set) var closed = false

  func put(_ message: JSON) {
    if let waiter {
      self.waiter = nil
      timer?.cancel()
      waiter.continuation.resume(returning: message)
    } else {
      queue.append(message)
    }
  }

  func close() {
    closed = true
    if let waiter {
      self.waiter = nil
      timer?.cancel()
      waiter.continuation.resume(returning: nil)
    }
  }

  /// The next message, or nil after `timeout` or once the socket closed.
  func take(timeout: Duration) async -> JSON? {
    if !queue.isEmpty { return queue.removeFirst() }
    if closed { return nil }
    nextID += 1
    let id = nextID
    return await withCheckedContinuation { continuation in
      waiter = (id, continuation)
      timer = Task {
        guard (try? await Task.sleep(for: timeout)) != nil else { return }
        await self.expire(id)
      }
    }
  }

  private func expire(_ id: Int) {
    guard let waiter, waiter.id == id else { return }
    self.waiter = nil
    waiter.continuation.resume(returning: nil)
  }
}
