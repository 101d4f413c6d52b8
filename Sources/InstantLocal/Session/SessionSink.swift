import InstantCore

/// Where a session's outgoing frames go: an unbounded, ordered queue drained by the socket's
/// writer task. Sending never suspends, so the app actor can fan out to many sessions while
/// keeping each session's messages in the order they were produced.
struct SessionSink: Sendable {
  let continuation: AsyncStream<String>.Continuation

  init(_ continuation: AsyncStream<String>.Continuation) {
    self.continuation = continuation
  }

  /// Queues a message for the socket.
  func send(_ message: JSON) {
    continuation.yield(message.serialized())
  }

  /// Queues a message that is already serialized.
  func send(text: String) {
    continuation.yield(text)
  }

  /// Ends the writer task after everything queued so far is written.
  func finish() {
    continuation.finish()
  }
}
