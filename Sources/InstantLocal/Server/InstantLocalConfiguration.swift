public import Foundation
import Logging

/// How an ``InstantLocalServer`` listens and where it keeps its data.
public struct InstantLocalConfiguration: Sendable {
  /// Where the data lives.
  public enum Storage: Sendable, Equatable {
    /// A SQLite file (created with its directory if missing).
    case file(String)
    /// An in-memory database, gone when the server stops.
    case memory
  }

  /// The address to bind; loopback by default.
  public var host: String
  /// The port to bind; 0 picks a free one (``InstantLocalServer/start()`` returns it).
  public var port: Int
  public var storage: Storage
  /// The largest text message a session may send; larger ones get an `error` reply.
  public var maxMessageBytes: Int
  /// How often the server pings each socket; a ping left unanswered for as long closes it.
  public var pingInterval: Duration
  /// The least time between two presence frames to one socket: changes made meanwhile are
  /// gathered into the next frame (a quiet room's first change is sent at once). Zero sends every
  /// change as it comes.
  public var presenceInterval: Duration
  /// The most a session's messages may take while they wait for a reader that does not keep up
  /// (a stalled app, a dead peer whose socket has not timed out yet). Past it the server closes
  /// the socket and forgets the session, as after any disconnect; the client reconnects and
  /// subscribes again. This is what bounds the server's memory per session.
  public var maxQueuedBytes: Int
  /// An `instant.perms.ts` (or JSON) file of permission rules every app enforces, re-read when
  /// it changes; `nil` allows everything, as an app without rules on InstantDB.
  public var rulesFile: String?
  /// Only apps made with `instant-local apps create` (or restored) exist; by default, as in
  /// development, an app is made on first use of its id.
  public var strictApps = false
  /// How often the rules file is checked for changes.
  public var rulesPollInterval: Duration = .milliseconds(250)
  /// The largest `$files` upload, in bytes; a larger one is refused (400) and changes nothing.
  public var maxUploadBytes = 256 << 20
  /// The address clients reach this server at, for the `url` of `$files` (a server behind a
  /// proxy); by default the address it listens on (``InstantLocalServer/baseURL``).
  public var publicURL: URL?
  /// How long a `$files` blob stays on disk after its row is gone (deleted, or replaced by an
  /// upload), so a backup taken meanwhile can still read it; then the sweep removes it.
  public var fileGracePeriod: Duration = .seconds(3600)
  /// How long ``InstantLocalServer/stop()`` lets open connections end by themselves (sockets get
  /// a close frame, `subscribe-query` streams their last chunk) before it cuts them.
  public var shutdownGrace: Duration = .seconds(2)
  /// Development only: `POST /runtime/oauth/id_token` believes any ID token's `email` without
  /// checking its signature, issuer or audience, for an app client that is not configured — so
  /// anyone can sign in as anyone. Off by default: then a token must be signed by its provider,
  /// for one of the app's OAuth clients (docs/instant-local.md, "Sign in with an ID token").
  /// The server says so in its log when it starts with this on.
  public var unverifiedIDTokens = false
  /// Where magic codes are emailed from; `nil` writes them to the log instead (development).
  /// With a mailer a code is never logged (docs/instant-local.md, "Magic codes by email").
  public var mail: SMTPConfiguration?
  /// How long a magic code stays valid (the reference's default: 24 hours).
  public var magicCodeExpiry: Duration = .seconds(24 * 3600)
  /// How many magic codes one email may be sent, and how many verifications it may try, an hour
  /// (the reference's 20); past it the server answers 429 `rate-limited`.
  public var magicCodesPerHour = 20
  /// The bearer token `GET /metrics` needs (Prometheus's `authorization` setting); `nil` turns
  /// the route off. The server keeps only its SHA-256.
  public var metricsToken: String?
  /// Connection caps and rate limits per client address and per app; none by default here,
  /// ``ServerLimits/production`` under `instant-local serve` (docs/instant-local.md, "Limits").
  public var limits = ServerLimits.none
  /// The addresses of reverse proxies (nginx, Caddy) whose `X-Forwarded-For` names the client:
  /// the address per-address limits count by and logs show. Without them the TCP peer is the
  /// client, and a proxy's header is ignored.
  public var trustedProxies: Set<String> = []
  /// The server's one clock (``ServerClock``): what it stamps, expires and waits by. The
  /// system's by default; a test gives it a clock it drives.
  public var clock = ServerClock.live

  public init(
    host: String = "127.0.0.1", port: Int = 8888, storage: Storage = .file(".instant/local.sqlite"),
    maxMessageBytes: Int = 4 << 20, pingInterval: Duration = .seconds(5),
    presenceInterval: Duration = .milliseconds(10), maxQueuedBytes: Int = 64 << 20, rulesFile: String? = nil,
    strictApps: Bool = false
  ) {
    self.strictApps = strictApps
    self.rulesFile = rulesFile
    self.host = host
    self.port = port
    self.storage = storage
    self.maxMessageBytes = maxMessageBytes
    self.pingInterval = pingInterval
    self.presenceInterval = presenceInterval
    self.maxQueuedBytes = maxQueuedBytes
  }
}
