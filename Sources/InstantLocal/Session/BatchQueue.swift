import NIOConcurrencyHelpers

/// An ordered queue between one producer and one consumer that hands the consumer everything
/// queued since it last asked. Work that piles up while the consumer is busy is then handled as
/// one batch (and can be coalesced), instead of item by item.
///
/// With a `limit`, ``push(_:)`` waits while that many items are queued: a producer reading a
/// socket then stops reading, and TCP pushes back on a client that sends faster than the server
/// works.
final class BatchQueue<Element: Sendable>: Sendable {
  private struct State {
    var items: [Element] = []
    var finished = false
    var consumer: CheckedContinuation<[Element]?, Never>?
    var producer: CheckedContinuation<Void, Never>?
  }

  private let state = NIOLockedValueBox(State())
  private let limit: Int

  init(limit: Int = .max) {
    self.limit = limit
  }

  /// Changes the queued items (appending, or coalescing with what is queued) and wakes the
  /// consumer. Ignored after ``finish()``.
  func update(_ change: (inout [Element]) -> Void) {
    let wake: (CheckedContinuation<[Element]?, Never>, [Element])? = state.withLockedValue { state in
      guard !state.finished else { return nil }
      change(&state.items)
      guard !state.items.isEmpty, let consumer = state.consumer else { return nil }
      state.consumer = nil
      defer { state.items = [] }
      return (consumer, state.items)
    }
    if let (consumer, items) = wake { consumer.resume(returning: items) }
  }

  /// Appends `item`, first waiting while `limit` items are queued.
  func push(_ item: Element) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let full = state.withLockedValue { state in
        guard state.items.count >= limit, !state.finished else { return false }
        state.producer = continuation
        return true
      }
      if !full { continuation.resume() }
    }
    update { $0.append(item) }
  }

  /// No more items: the consumer gets what is queued, then nil.
  func finish() {
    let (consumer, producer) = state.withLockedValue { state in
      state.finished = true
      defer {
        state.producer = nil
        if state.items.isEmpty { state.consumer = nil }
      }
      return (state.items.isEmpty ? state.consumer : nil, state.producer)
    }
    consumer?.resume(returning: nil)
    producer?.resume()
  }

  /// How many items wait for the consumer.
  var count: Int { state.withLockedValue { $0.items.count } }

  /// Everything queued now, without waiting (empty when nothing is).
  func takeAll() -> [Element] {
    let (items, producer) = state.withLockedValue { state in
      defer {
        state.items = []
        state.producer = nil
      }
      return (state.items, state.producer)
    }
    producer?.resume()
    return items
  }

  /// Everything queued since the last call, in order (waiting for at least one item); nil once
  /// finished and drained.
  func next() async -> [Element]? {
    await withCheckedContinuation { continuation in
      let (ready, producer): ([Element]??, CheckedContinuation<Void, Never>?) = state.withLockedValue { state in
        if !state.items.isEmpty {
          defer {
            state.items = []
            state.producer = nil
          }
          return (.some(state.items), state.producer)
        }
        if state.finished { return (.some(nil), nil) }
        state.consumer = continuation
        return (nil, nil)
      }
      producer?.resume()
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
