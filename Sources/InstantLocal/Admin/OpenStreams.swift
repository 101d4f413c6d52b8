import NIOConcurrencyHelpers

/// The `subscribe-query` streams open now, so that stopping the server ends each one itself (its
/// last chunk sent) rather than leaving them to be cut when the grace period runs out.
final class OpenStreams: Sendable {
  private let sinks = NIOLockedValueBox<[String: SessionSink]>([:])

  func add(_ id: String, _ sink: SessionSink) { sinks.withLockedValue { $0[id] = sink } }

  func remove(_ id: String) { _ = sinks.withLockedValue { $0.removeValue(forKey: id) } }

  /// Ends every open stream after what it has queued.
  func finishAll() {
    for sink in sinks.withLockedValue({ Array($0.values) }) { sink.finish() }
  }
}
