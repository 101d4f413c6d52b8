import NIOCore

/// One SMTP reply: its code and the text of its lines.
struct SMTPReply: Sendable, Equatable {
  var code: Int
  var lines: [String]
  var text: String { lines.joined(separator: " / ") }
}

/// Reads the server's replies (lines `250-…` ending with `250 …`) and hands each to the oldest
/// command waiting for one, or keeps it until one asks.
///
/// Touched only on its channel's event loop (``next(timeout:)`` is called through it), which makes
/// `@unchecked Sendable` sound.
final class SMTPReplyHandler: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = ByteBuffer

  /// The longest reply line kept; a server sending more is not an SMTP server.
  static let maxLine = 4096
  private var partial: [UInt8] = []
  private var lines: [String] = []
  private var replies: [SMTPReply] = []
  private var waiting: [EventLoopPromise<SMTPReply>] = []
  private var failure: MailError?
  private var context: ChannelHandlerContext?

  func handlerAdded(context: ChannelHandlerContext) { self.context = context }
  func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

  /// The next reply; fails after `timeout`, or when the connection fails or closes first.
  func next(on loop: any EventLoop, timeout: TimeAmount) -> EventLoopFuture<SMTPReply> {
    if !replies.isEmpty { return loop.makeSucceededFuture(replies.removeFirst()) }
    if let failure { return loop.makeFailedFuture(failure) }
    let promise = loop.makePromise(of: SMTPReply.self)
    waiting.append(promise)
    let timer = loop.scheduleTask(in: timeout) { [self] in
      fail(MailError(.timeout, "no reply from the SMTP server within \(timeout.nanoseconds / 1_000_000_000) s"))
    }
    promise.futureResult.whenComplete { _ in timer.cancel() }
    return promise.futureResult
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var buffer = unwrapInboundIn(data)
    partial += buffer.readBytes(length: buffer.readableBytes) ?? []
    while let end = partial.firstIndex(of: UInt8(ascii: "\n")) {
      var line = Array(partial[..<end])
      partial.removeSubrange(...end)
      if line.last == UInt8(ascii: "\r") { line.removeLast() }
      take(String(decoding: line, as: UTF8.self))
    }
    if partial.count > Self.maxLine { fail(MailError(.protocolError, "a reply line longer than \(Self.maxLine) bytes")) }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    fail(error as? MailError ?? MailError(.tls, "\(error)"))
  }

  func channelInactive(context: ChannelHandlerContext) {
    fail(MailError(.protocolError, "the SMTP server closed the connection"))
    context.fireChannelInactive()
  }

  /// A reply line: `NNN-text` continues the reply, `NNN text` (or `NNN`) ends it.
  private func take(_ line: String) {
    let bytes = Array(line.utf8)
    guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)),
      bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-")
    else { return fail(MailError(.protocolError, "not an SMTP reply: \(line.prefix(80))")) }
    lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
    guard bytes.count == 3 || bytes[3] == UInt8(ascii: " ") else { return }
    let reply = SMTPReply(code: code, lines: lines)
    lines = []
    if waiting.isEmpty { replies.append(reply) } else { waiting.removeFirst().succeed(reply) }
  }

  /// Fails every waiting command and every later one, and closes the connection.
  private func fail(_ error: MailError) {
    if failure == nil { failure = error }
    let promises = waiting
    waiting = []
    for promise in promises { promise.fail(error) }
    context?.close(promise: nil)
  }
}
