import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Sends one message per connection to an SMTP submission server: `EHLO`, `STARTTLS` (or TLS from
/// the start), `AUTH`, `MAIL FROM`, `RCPT TO`, `DATA`, `QUIT` (RFC 5321, 3207, 4954).
struct SMTPClient: Sendable {
  let configuration: SMTPConfiguration
  /// The server's clock, for the message's `Date:`.
  let clock: ServerClock
  var group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton

  /// Sends `message`; throws a ``MailError`` saying which step failed.
  func send(_ message: MailMessage) async throws(MailError) {
    for address in [message.from, message.to] + (message.replyTo.map { [$0] } ?? []) where !address.isValid {
      throw MailError(.invalidAddress, "not one email address: \(address.email.prefix(80))")
    }
    do {
      let connection = try await connect()
      do {
        try await converse(connection, message)
        _ = try? await connection.command("QUIT")
        try? await connection.channel.close()
      } catch {
        try? await connection.channel.close()
        throw error
      }
    } catch let error as MailError {
      throw error
    } catch {
      throw MailError(.protocolError, "\(error)")
    }
  }

  private var timeout: TimeAmount {
    let (seconds, attoseconds) = configuration.timeout.components
    return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }

  /// The TLS context for this server (the trust file read once per message, not per handler).
  private func tlsContext() throws(MailError) -> NIOSSLContext {
    do {
      var tls = TLSConfiguration.makeClientConfiguration()
      if let file = configuration.trustedCertificatesFile { tls.trustRoots = .file(file) }
      return try NIOSSLContext(configuration: tls)
    } catch {
      throw MailError(.tls, "TLS could not be set up: \(error)")
    }
  }

  /// A TLS handler over `context`, made on the channel's loop (its only thread).
  private func tlsHandler(_ context: NIOSSLContext) throws -> NIOSSLClientHandler {
    // An address is checked against the certificate's IP names, a host name against its DNS names.
    let isAddress = (try? SocketAddress(ipAddress: configuration.host, port: 0)) != nil
    return try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : configuration.host)
  }


  private func connect() async throws -> Connection {
    let replies = SMTPReplyHandler()
    // Made before connecting, so a bad trust file is reported as such, not as a failed connect.
    let tls = configuration.security == .none ? nil : try tlsContext()
    let implicitTLS = configuration.security == .tls ? tls : nil
    let channel: any Channel
    do {
      channel = try await ClientBootstrap(group: group)
        .connectTimeout(timeout)
        .channelInitializer { channel in
          channel.eventLoop.makeCompletedFuture {
            if let implicitTLS { try channel.pipeline.syncOperations.addHandler(try tlsHandler(implicitTLS)) }
            try channel.pipeline.syncOperations.addHandler(replies)
          }
        }
        .connect(host: configuration.host, port: configuration.port).get()
    } catch {
      throw MailError(.connect, "could not reach \(configuration.host):\(configuration.port): \(error)")
    }
    return Connection(channel: channel, replies: replies, timeout: timeout, tls: tls)
  }

  private func converse(_ connection: Connection, _ message: MailMessage) async throws {
    try await connection.expect(220, from: connection.reply(), "greeting")
    var capabilities = try await connection.command("EHLO \(configuration.heloName)", expecting: 250).lines
    if configuration.security == .startTLS {
      guard capabilities.contains(where: { $0.uppercased() == "STARTTLS" }) else {
        throw MailError(.tls, "\(configuration.host) does not offer STARTTLS (set security to tls for port 465)")
      }
      try await connection.command("STARTTLS", expecting: 220)
      // Made and added on the channel's event loop, the handler's only thread.
      let (channel, tls) = (connection.channel, try connection.tls ?? tlsContext())
      try await channel.eventLoop.submit { [self] in
        try channel.pipeline.syncOperations.addHandler(try tlsHandler(tls), position: .first)
      }.get()
      capabilities = try await connection.command("EHLO \(configuration.heloName)", expecting: 250).lines
    }
    if let credentials = configuration.credentials {
      try await authenticate(connection, credentials, capabilities)
    }
    try await connection.command("MAIL FROM:<\(message.from.email)>", expecting: 250, refusal: .refused)
    try await connection.command("RCPT TO:<\(message.to.email)>", expecting: 250, 251, refusal: .refused)
    try await connection.command("DATA", expecting: 354)
    let domain = message.from.email.split(separator: "@").last.map(String.init) ?? configuration.heloName
    let data = message.rendered(date: clock.now, domain: domain) + "\r\n.\r\n"
    try await connection.write(data)
    try await connection.expect(250, from: connection.reply(), "the message", refusal: .refused)
  }

  private func authenticate(
    _ connection: Connection, _ credentials: SMTPConfiguration.Credentials, _ capabilities: [String]
  ) async throws {
    guard configuration.security != .none else {
      throw MailError(.authentication, "credentials are never sent without TLS (security is none)")
    }
    let mechanisms = capabilities.first { $0.uppercased().hasPrefix("AUTH") }?.uppercased()
      .split(separator: " ").dropFirst().map(String.init) ?? []
    func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    if mechanisms.contains("PLAIN") || !mechanisms.contains("LOGIN") {
      let token = base64("\0\(credentials.username)\0\(credentials.password)")
      try await connection.command("AUTH PLAIN \(token)", expecting: 235, refusal: .authentication, shown: "AUTH PLAIN …")
    } else {
      try await connection.command("AUTH LOGIN", expecting: 334, refusal: .authentication)
      try await connection.command(base64(credentials.username), expecting: 334, refusal: .authentication, shown: "the user name")
      try await connection.command(base64(credentials.password), expecting: 235, refusal: .authentication, shown: "the password")
    }
  }

  /// One connection's channel and its replies.
  struct Connection: Sendable {
    let channel: any Channel
    let replies: SMTPReplyHandler
    let timeout: TimeAmount
    /// The TLS context (`nil` for security `none`).
    let tls: NIOSSLContext?

    func reply() async throws -> SMTPReply {
      try await channel.eventLoop.flatSubmit { [replies, timeout, channel] in
        replies.next(on: channel.eventLoop, timeout: timeout)
      }.get()
    }

    func write(_ text: String) async throws {
      try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
    }

    /// Sends `line` and reads the reply, which must have one of `codes` (any, when none); `shown`
    /// names the command in an error instead of the line (which may hold a secret).
    @discardableResult
    func command(
      _ line: String, expecting codes: Int..., refusal: MailError.Kind = .protocolError, shown: String? = nil
    ) async throws -> SMTPReply {
      try await write(line + "\r\n")
      let reply = try await reply()
      guard codes.isEmpty || codes.contains(reply.code) else {
        throw MailError(refusal, "\(shown ?? String(line.prefix(60))) got \(reply.code) \(reply.text.prefix(200))")
      }
      return reply
    }

    func expect(_ code: Int, from reply: SMTPReply, _ what: String, refusal: MailError.Kind = .protocolError) throws {
      guard reply.code == code else { throw MailError(refusal, "\(what) got \(reply.code) \(reply.text.prefix(200))") }
    }
  }
}
