import NIOConcurrencyHelpers
import NIOCore

/// The `subscribe-query` streams open now, so that stopping the server ends each one itself (its
/// last chunk sent) rather than leaving them to be cut when the grace period runs out.
///
/// Ending them closes the server's listening socket first (``listening(on:)``), on every way the
/// server stops (``InstantLocalServer/stop()``, or SIGTERM through each stream's graceful-shutdown
/// handler): a reader whose stream ends reconnects at once, and a stopping server that accepted it
/// would answer no one, leaving the reader to wait out its timeout. A stream opened after stopping
/// began ends at once.
final class OpenStreams: Sendable {
  private let state = NIOLockedValueBox((sinks: [String: SessionSink](), closed: false, listener: (any Channel)?.none))

  /// The server's listening socket, closed before any stream is ended.
  func listening(on channel: any Channel) { state.withLockedValue { $0.listener = channel } }

  /// Keeps `sink` until it is removed; ends it at once when the server is stopping.
  func add(_ id: String, _ sink: SessionSink) {
    let closed = state.withLockedValue { state in
      if !state.closed { state.sinks[id] = sink }
      return state.closed
    }
    if closed { sink.finish() }
  }

  func remove(_ id: String) { _ = state.withLockedValue { $0.sinks.removeValue(forKey: id) } }

  /// Closes the listening socket, then ends every open stream after what it has queued, and every
  /// one opened from now on.
  func finishAll() async {
    let listener = state.withLockedValue { $0.listener }
    if let listener { try? await listener.close().get() }
    let sinks = state.withLockedValue { state in
      state.closed = true
      return Array(state.sinks.values)
    }
    for sink in sinks { sink.finish() }
  }
}
