import Foundation
import Prometheus

/// What an operator watches, in Prometheus's text format at `GET /metrics` (docs/instant-local.md,
/// "Health and metrics"). One registry per server, so servers in one process (tests) never mix.
/// Counters are counted where things happen, from any thread (the metrics are thread-safe); the
/// gauges (sessions, queries, queued bytes) are read from the apps when the page is asked for.
final class ServerMetrics: Sendable {
  let registry: PrometheusCollectorRegistry

  /// Transactions committed, and refused (by the rules, a bad step, or storage).
  private let committed: Counter
  private let refused: Counter
  /// How long one invalidation pass takes: the queries a commit touched re-run or kept current
  /// and their refreshes queued.
  private let refreshDuration: DurationHistogram
  /// Sessions that sent `init` (and admin streams), since the server started.
  private let sessionsOpened: Counter
  /// Sign-ins that succeeded, by how.
  private let signIns: [SignIn: Counter]
  /// Magic-code emails sent, and not sent.
  private let mailsSent: Counter
  private let mailFailures: Counter
  /// Sockets closed because their reader fell behind by more than `--max-queued-bytes`.
  private let slowReadersClosed: Counter

  private let sessions: Gauge
  private let queries: Gauge
  private let queuedBytes: Gauge
  private let apps: Gauge

  /// How a user signed in.
  enum SignIn: String, CaseIterable, Sendable {
    case guest, magicCode = "magic-code", idToken = "id-token", oauth
  }

  init() {
    let registry = PrometheusCollectorRegistry()
    self.registry = registry
    func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
      MetricNameDescriptor(namespace: "instant", metricName: metric, unitName: unit, helpText: help)
    }
    let transactions = name("transactions", "total", "Transactions committed or refused.")
    committed = registry.makeCounter(descriptor: transactions, labels: [("outcome", "committed")])
    refused = registry.makeCounter(descriptor: transactions, labels: [("outcome", "refused")])
    refreshDuration = registry.makeDurationHistogram(
      descriptor: name("refresh_duration", "seconds", "One invalidation pass: affected queries re-run or kept, refreshes queued."),
      buckets: [.microseconds(100), .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50),
        .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5)])
    sessionsOpened = registry.makeCounter(descriptor: name("sessions_opened", "total", "Sessions that sent init, and admin streams."))
    let signIn = name("sign_ins", "total", "Sign-ins that succeeded, by method.")
    signIns = Dictionary(uniqueKeysWithValues: SignIn.allCases.map { ($0, registry.makeCounter(descriptor: signIn, labels: [("method", $0.rawValue)])) })
    let mails = name("magic_code_emails", "total", "Magic-code emails sent, or not sent.")
    mailsSent = registry.makeCounter(descriptor: mails, labels: [("outcome", "sent")])
    mailFailures = registry.makeCounter(descriptor: mails, labels: [("outcome", "failed")])
    slowReadersClosed = registry.makeCounter(
      descriptor: name("slow_readers_closed", "total", "Sockets closed because their unread messages passed --max-queued-bytes."))
    sessions = registry.makeGauge(descriptor: name("sessions", "", "Sessions open now."))
    queries = registry.makeGauge(descriptor: name("queries", "", "Queries subscribed now, over every session."))
    queuedBytes = registry.makeGauge(descriptor: name("queued", "bytes", "Bytes waiting for slow readers now, over every session."))
    apps = registry.makeGauge(descriptor: name("apps_loaded", "", "Apps in memory now."))
  }

  /// Counts a sign-in.
  func signedIn(_ method: SignIn) { signIns[method]?.increment() }
  /// Counts a transaction committed, or refused.
  func transaction(committed: Bool) { (committed ? self.committed : refused).increment() }
  /// Records how long an invalidation pass took.
  func refreshed(in duration: Duration) { refreshDuration.record(duration) }
  /// Counts a session opened.
  func sessionOpened() { sessionsOpened.increment() }
  /// Counts a magic-code email sent, or not sent.
  func mail(sent: Bool) { (sent ? mailsSent : mailFailures).increment() }
  /// Counts a socket closed for a slow reader.
  func slowReaderClosed() { slowReadersClosed.increment() }

  /// What the apps hold now, read when the page is asked for.
  struct Snapshot: Sendable {
    var apps = 0
    var sessions = 0
    var queries = 0
    var queuedBytes = 0
  }

  /// The page: the gauges set from `now`, then every metric in Prometheus's text format.
  func page(_ now: Snapshot) -> String {
    apps.set(to: Double(now.apps))
    sessions.set(to: Double(now.sessions))
    queries.set(to: Double(now.queries))
    queuedBytes.set(to: Double(now.queuedBytes))
    return registry.emitToString()
  }
}
