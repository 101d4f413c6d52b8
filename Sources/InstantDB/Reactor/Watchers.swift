import Foundation

/// The open streams of one kind of update (connection status, pending writes, rejections).
struct Watchers<Value: Sendable> {
  private var streams: [UUID: AsyncStream<Value>.Continuation] = [:]

  var isEmpty: Bool { streams.isEmpty }

  mutating func add(_ id: UUID, _ continuation: AsyncStream<Value>.Continuation) { streams[id] = continuation }

  mutating func remove(_ id: UUID) { streams[id] = nil }

  func yield(_ value: Value) {
    for stream in streams.values { stream.yield(value) }
  }

  mutating func finishAll() {
    for stream in streams.values { stream.finish() }
    streams = [:]
  }
}
