import ArgumentParser
import Foundation
import InstantLocal
import Logging

/// `instant-local serve` (the default command): the server.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve InstantDB's protocol, auth and admin API over HTTP and WebSocket (the default command).")

  @Option(help: "The address to bind.")
  var host = "127.0.0.1"

  @Option(help: "The port to bind (0 picks a free one).")
  var port = 8888

  @Option(name: .customLong("data"), help: "The SQLite file that holds the data.")
  var dataPath = DataFile.defaultPath

  @Flag(help: "Keep the data in memory only (nothing is written to disk).")
  var memory = false

  @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
  var logLevel = "info"

  @Option(help: "Log lines as text, or as json: one JSON object per line, with each line's fields as keys (for a log collector).")
  var logFormat = "text"

  // `.unconditional`, so a negative number reaches `validate()` rather than reading as a flag.
  @Option(parsing: .unconditional, help: "The largest message a session may send, in bytes.")
  var maxMessageBytes = 4 << 20

  @Option(parsing: .unconditional, help: "The most a session's unread messages may take, in bytes; past it the socket is closed.")
  var maxQueuedBytes = 64 << 20

  @Option(
    name: .customLong("ping-interval"), parsing: .unconditional,
    help: "Seconds between WebSocket pings (and admin stream heartbeats); a socket that has not answered a ping by the next one is closed.")
  var pingIntervalSeconds = 5

  @Option(
    help: ArgumentHelp(
      "Permission rules every app enforces: an instant.perms.ts or a JSON file, re-read when it changes.",
      discussion: "Without it everything is allowed, as on InstantDB for an app without rules.",
      valueName: "path"))
  var rules: String?

  @Flag(help: "Serve only apps made with `instant-local apps create` (or restored); otherwise an app is made on first use of its id.")
  var strictApps = false

  @Option(parsing: .unconditional, help: "The largest $files upload, in bytes.")
  var maxUploadBytes = 256 << 20

  @Option(
    help: ArgumentHelp(
      "The address clients reach this server at, for $files URLs (behind a proxy); by default the one it listens on.",
      valueName: "url"))
  var publicURL: String?

  @Flag(
    name: .customLong("unverified-id-tokens"),
    help: "DEVELOPMENT ONLY: sign in with any ID token's email, unchecked, when the app has no OAuth client of the token's client_name. Anyone can then sign in as anyone.")
  var unverifiedIDTokens = false

  @Option(help: ArgumentHelp(
    "The SMTP server magic codes are emailed through (submission).",
    discussion: "Without it codes are written to the log (development). The password comes from the environment variable INSTANT_LOCAL_SMTP_PASSWORD or --smtp-password-file, never the command line."))
  var smtpHost: String?

  @Option(help: "The SMTP server's port (587 for starttls, 465 for tls).")
  var smtpPort: Int?

  @Option(help: "starttls (upgrade before anything is sent), tls (TLS from the first byte) or none (a mail catcher on this machine only; no credentials).")
  var smtpSecurity = "starttls"

  @Option(help: "The SMTP user name.")
  var smtpUser: String?

  @Option(help: "A file holding the SMTP password (read once at start; trailing newline ignored).")
  var smtpPasswordFile: String?

  @Option(help: "A PEM file of certificates to trust for the SMTP server instead of the system's.")
  var smtpCAFile: String?

  @Option(help: "The address magic codes come from, for apps whose template names no sender.")
  var mailFrom: String?

  @Option(help: ArgumentHelp(
    "A file holding the bearer token GET /metrics needs (or INSTANT_LOCAL_METRICS_TOKEN).",
    discussion: "Without one the route answers 404."))
  var metricsTokenFile: String?

  @Option(parsing: .unconditional, help: "How long a magic code stays valid, in minutes (1 to 1440).")
  var magicCodeExpiryMinutes = 1440

  @Option(parsing: .unconditional, help: "Magic codes sent, and verifications tried, per email per hour; past it 429.")
  var magicCodesPerHour = 20

  @Option(parsing: .unconditional, help: "WebSocket sessions open at once, server-wide; one more is closed with 1013 (0: no limit).")
  var maxConnections = ServerLimits.production.maxConnections ?? 0

  @Option(name: .customLong("max-connections-per-ip"), parsing: .unconditional, help: "WebSocket sessions open at once from one client address (0: no limit).")
  var maxConnectionsPerIP = ServerLimits.production.maxConnectionsPerIP ?? 0

  @Option(name: .customLong("sign-ins-per-ip-per-minute"), parsing: .unconditional, help: "Sign-in requests from one client address a minute; past it 429 (0: no limit).")
  var signInsPerIPPerMinute = ServerLimits.production.signInsPerIPPerMinute ?? 0

  @Option(parsing: .unconditional, help: "Sign-in requests for one app a minute, from every address together; past it 429 (0: no limit).")
  var signInsPerAppPerMinute = ServerLimits.production.signInsPerAppPerMinute ?? 0

  @Option(name: .customLong("transactions-per-ip-per-second"), parsing: .unconditional, help: "Transactions from one client address a second; past it they wait their turn, never refused (0: no limit).")
  var transactionsPerIPPerSecond = ServerLimits.production.transactionsPerIPPerSecond ?? 0

  @Option(parsing: .unconditional, help: "Transactions for one app a second, from every address together; past it they wait (0: no limit).")
  var transactionsPerAppPerSecond = ServerLimits.production.transactionsPerAppPerSecond ?? 0

  @Option(
    name: .customLong("trusted-proxy"),
    help: ArgumentHelp(
      "The address of a reverse proxy whose X-Forwarded-For names the client (repeat for several).",
      discussion: "nginx or Caddy on the same machine: --trusted-proxy 127.0.0.1. Without it the TCP peer is the client.",
      valueName: "address"))
  var trustedProxies: [String] = []

  @Option(
    help: ArgumentHelp(
      "A configuration file: one `key = value` a line, a key for each of these options without its dashes.",
      discussion: "Options on the command line win over the file. Secrets go in files named by the *-file keys, or the environment.",
      valueName: "path"))
  var config: String?

  /// The limits the options describe (0 turns one off).
  var limits: ServerLimits {
    func limit(_ value: Int) -> Int? { value > 0 ? value : nil }
    return ServerLimits(
      maxConnections: limit(maxConnections), maxConnectionsPerIP: limit(maxConnectionsPerIP),
      signInsPerIPPerMinute: limit(signInsPerIPPerMinute), signInsPerAppPerMinute: limit(signInsPerAppPerMinute),
      transactionsPerIPPerSecond: limit(transactionsPerIPPerSecond), transactionsPerAppPerSecond: limit(transactionsPerAppPerSecond))
  }

  func validate() throws {
    for (name, value) in [
      ("max-connections", maxConnections), ("max-connections-per-ip", maxConnectionsPerIP),
      ("sign-ins-per-ip-per-minute", signInsPerIPPerMinute), ("sign-ins-per-app-per-minute", signInsPerAppPerMinute),
      ("transactions-per-ip-per-second", transactionsPerIPPerSecond),
      ("transactions-per-app-per-second", transactionsPerAppPerSecond),
    ] where value < 0 {
      throw ValidationError("--\(name) must be 0 (no limit) or more, got \(value)")
    }
    for proxy in trustedProxies where !Self.isIPAddress(proxy) {
      throw ValidationError("--trusted-proxy must be an IP address such as 127.0.0.1, got \(proxy)")
    }
    guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format must be text or json, got \(logFormat)") }
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
    }
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    guard maxMessageBytes > 0 else { throw ValidationError("--max-message-bytes must be positive, got \(maxMessageBytes)") }
    guard maxQueuedBytes > 0 else { throw ValidationError("--max-queued-bytes must be positive, got \(maxQueuedBytes)") }
    guard (1...3600).contains(pingIntervalSeconds) else {
      throw ValidationError("--ping-interval must be between 1 and 3600 seconds, got \(pingIntervalSeconds)")
    }
    guard maxUploadBytes > 0 else { throw ValidationError("--max-upload-bytes must be positive, got \(maxUploadBytes)") }
    guard (1...1440).contains(magicCodeExpiryMinutes) else {
      throw ValidationError("--magic-code-expiry-minutes must be between 1 and 1440, got \(magicCodeExpiryMinutes)")
    }
    guard magicCodesPerHour > 0 else { throw ValidationError("--magic-codes-per-hour must be positive, got \(magicCodesPerHour)") }
    _ = try metricsToken()
    if smtpHost != nil {
      _ = try mailConfiguration()
    } else if smtpUser != nil || smtpPasswordFile != nil || smtpPort != nil || mailFrom != nil || smtpCAFile != nil {
      throw ValidationError("--smtp-user, --smtp-password-file, --smtp-port, --smtp-ca-file and --mail-from need --smtp-host")
    }
    if let publicURL, URL(string: publicURL).map({ ["http", "https"].contains($0.scheme ?? "") && $0.host != nil }) != true {
      throw ValidationError("--public-url must be an http(s) address such as https://instant.example.com, got \(publicURL)")
    }
  }

  func run() async throws {
    let level = Logger.Level(rawValue: logLevel) ?? .info
    let json = logFormat == "json"
    LoggingSystem.bootstrap { label in
      if json {
        var handler = JSONLogHandler(label: label)
        handler.logLevel = level
        return handler
      }
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "instant-local")
    var configuration = InstantLocalConfiguration(
      host: host, port: port, storage: memory ? .memory : .file(dataPath), maxMessageBytes: maxMessageBytes,
      pingInterval: .seconds(pingIntervalSeconds), maxQueuedBytes: maxQueuedBytes, rulesFile: rules, strictApps: strictApps)
    configuration.maxUploadBytes = maxUploadBytes
    configuration.publicURL = publicURL.flatMap { URL(string: $0) }
    configuration.unverifiedIDTokens = unverifiedIDTokens
    configuration.mail = try mailConfiguration()
    configuration.magicCodeExpiry = .seconds(magicCodeExpiryMinutes * 60)
    configuration.magicCodesPerHour = magicCodesPerHour
    configuration.metricsToken = try metricsToken()
    configuration.limits = limits
    configuration.trustedProxies = Set(trustedProxies)
    let server = try InstantLocalServer(configuration: configuration, logger: logger)
    let host = self.host
    let storage = memory ? "in memory" : dataPath
    let rulesLine =
      (rules.map { "  Rules:     \($0) (re-read when it changes)\n" } ?? "")
      + (unverifiedIDTokens ? "  WARNING:   ID tokens are not verified: anyone can sign in as anyone (development only)\n" : "")
      + (configuration.mail.map { "  Mail:      magic codes emailed through \($0.host):\($0.port)\n" }
        ?? "  Mail:      none; magic codes are written to the log (--smtp-host to email them)\n")
      + "  Limits:    \(Self.describe(limits))\n"
      + (trustedProxies.isEmpty ? "" : "  Proxies:   X-Forwarded-For believed from \(trustedProxies.joined(separator: ", "))\n")
    try await server.run { port in
      let banner = """
        instant-local listening (data: \(storage))
          WebSocket: ws://\(host):\(port)/runtime/session
          HTTP:      http://\(host):\(port)
        \(rulesLine)
        """
      FileHandle.standardOutput.write(Data(banner.utf8))
    }
  }

  /// The mailer the `--smtp-*` options describe; `nil` without `--smtp-host`. The password comes
  /// from `INSTANT_LOCAL_SMTP_PASSWORD` or `--smtp-password-file`, never from the command line.
  func mailConfiguration() throws -> SMTPConfiguration? {
    guard let smtpHost else { return nil }
    guard let security = SMTPConfiguration.Security(rawValue: smtpSecurity) else {
      throw ValidationError("--smtp-security must be starttls, tls or none, got \(smtpSecurity)")
    }
    guard let mailFrom, MailAddress(email: mailFrom).isValid else {
      throw ValidationError("--smtp-host needs --mail-from, the one address codes come from (such as login@example.com)")
    }
    var password = ProcessInfo.processInfo.environment["INSTANT_LOCAL_SMTP_PASSWORD"]
    if let smtpPasswordFile {
      guard let text = try? String(contentsOfFile: smtpPasswordFile, encoding: .utf8) else {
        throw ValidationError("--smtp-password-file: cannot read \(smtpPasswordFile)")
      }
      password = text.trimmingCharacters(in: .newlines)
    }
    if smtpUser != nil, password == nil {
      throw ValidationError("--smtp-user needs a password: set INSTANT_LOCAL_SMTP_PASSWORD or --smtp-password-file")
    }
    if smtpUser != nil, security == .none {
      throw ValidationError("--smtp-security none sends no credentials: drop --smtp-user or use starttls or tls")
    }
    if let smtpCAFile, !FileManager.default.isReadableFile(atPath: smtpCAFile) {
      throw ValidationError("--smtp-ca-file: cannot read \(smtpCAFile)")
    }
    let port = smtpPort ?? (security == .tls ? 465 : security == .startTLS ? 587 : 25)
    guard (1...65535).contains(port) else { throw ValidationError("--smtp-port must be between 1 and 65535, got \(port)") }
    return SMTPConfiguration(
      host: smtpHost, port: port, security: security,
      credentials: smtpUser.map { SMTPConfiguration.Credentials(username: $0, password: password ?? "") },
      from: MailAddress(email: mailFrom), trustedCertificatesFile: smtpCAFile)
  }

  /// The limits in one line, for the banner.
  static func describe(_ limits: ServerLimits) -> String {
    func show(_ value: Int?) -> String { value.map(String.init) ?? "no limit" }
    return "connections \(show(limits.maxConnections)) (per address \(show(limits.maxConnectionsPerIP))); "
      + "sign-ins a minute per address \(show(limits.signInsPerIPPerMinute)), per app \(show(limits.signInsPerAppPerMinute)); "
      + "transactions a second per address \(show(limits.transactionsPerIPPerSecond)), per app \(show(limits.transactionsPerAppPerSecond))"
  }

  /// Whether `text` is an IPv4 or IPv6 address.
  static func isIPAddress(_ text: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
  }

  /// The token `GET /metrics` needs: `--metrics-token-file`, else `INSTANT_LOCAL_METRICS_TOKEN`.
  func metricsToken() throws -> String? {
    var token = ProcessInfo.processInfo.environment["INSTANT_LOCAL_METRICS_TOKEN"]
    if let metricsTokenFile {
      guard let text = try? String(contentsOfFile: metricsTokenFile, encoding: .utf8) else {
        throw ValidationError("--metrics-token-file: cannot read \(metricsTokenFile)")
      }
      token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    if let token, token.count < 16 {
      throw ValidationError("the metrics token must be at least 16 characters (--metrics-token-file or INSTANT_LOCAL_METRICS_TOKEN)")
    }
    return token
  }
}
