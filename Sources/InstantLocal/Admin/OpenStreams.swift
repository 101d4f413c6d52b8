import NIOConcurrencyHelpers

/// The `subscribe-query` streams open now, so that stopping the server ends each one itself (its
/// last chunk sent) rather than leaving them to be cut when the grace period runs out.
///
/// Once stopping has begun, a stream opened after it (a reader reconnecting to the old server
/// before its listener closed) ends at once: left open, nothing would ever end it, and its reader
/// would wait on a server that is gone.
final class OpenStreams: Sendable {
  private let state = NIOLockedValueBox((sinks: [String: SessionSink](), closed: false))

  /// Keeps `sink` until it is removed; ends it at once when the server is stopping.
  func add(_ id: String, _ sink: SessionSink) {
    let closed = state.withLockedValue { state in
      if !state.closed { state.sinks[id] = sink }
      return state.closed
    }
    if closed { sink.finish() }
  }

  func remove(_ id: String) { _ = state.withLockedValue { $0.sinks.removeValue(forKey: id) } }

  /// Ends every open stream after what it has queued, and every one opened from now on.
  func finishAll() {
    let sinks = state.withLockedValue { state in
      state.closed = true
      return Array(state.sinks.values)
    }
    for sink in sinks { sink.finish() }
  }
}
