// instant-local-tls-bench [sessions] [writes] [sign-ins]: instant-local as docs/deploy.md deploys it,
// behind nginx with TLS on loopback (Debian's nginx, a certificate openssl makes), measured from
// our client's transports (NIOWebSocketTransport, NIOHTTPTransport with the certificate trusted):
//
// 1. `sessions` (1,000) WebSocket sessions through nginx, each subscribed to one query; a writer
//    session sends `writes` (100) one-step transactions, one at a time: the time from its send to
//    the `refresh-ok` of the last subscribed session (p50, p99, max); then the RSS of this process
//    (the server and every session) and of nginx.
// 2. Sign-ins per second, 16 at once, through nginx and straight to the server: `sign-ins` (2,000)
//    guest sign-ins (`POST /runtime/auth/sign_in_guest`), and half as many magic-code sign-ins
//    (`POST /admin/magic_code` for a code, then `POST /runtime/auth/verify_magic_code`), which
//    count the pair as one.
//
// Run: swift build -c release --product instant-local-tls-bench && .build/release/instant-local-tls-bench
// (nginx and openssl in /usr/sbin or /usr/bin). nginx is stopped at the end; if the bench stops on
// an error instead, `pkill -9 -f 'nginx -c /tmp/tls-bench'` stops it.
import Foundation
import InstantCore
import InstantDB
import InstantLocal
import Logging

#if canImport(Glibc)
  import Glibc
#endif
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let sessionCount = arguments.first ?? 1000
let writeCount = arguments.dropFirst().first ?? 100
let signInCount = arguments.dropFirst(2).first ?? 2000

func run(_ tool: String, _ args: [String]) throws {
  let process = Process()
  let candidates = ["/usr/sbin/\(tool)", "/usr/bin/\(tool)", "/usr/local/bin/\(tool)"]
  guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
    fatalError("\(tool) is needed: apt-get install -y \(tool)")
  }
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = args
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
}

/// A port nothing listens on now.
func freePort() -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
  _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
  return Int(UInt16(bigEndian: address.sin_port))
}

/// Resident set size of process `pid`, in MB.
func rssMB(_ pid: Int32) -> Double {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
  else { return 0 }
  return kb / 1024
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
}

func milliseconds(_ d: Duration) -> Double {
  Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
}

/// A session's frames, read in order.
final class Reader: @unchecked Sendable {
  var iterator: AsyncThrowingStream<String, any Error>.AsyncIterator
  init(_ connection: any WebSocketConnection) { iterator = connection.messages.makeAsyncIterator() }

  /// Reads until a frame with `"op":"<op>"`.
  func next(_ op: String) async throws {
    let needle = "\"op\":\"\(op)\""
    while let text = try await iterator.next() {
      if text.contains(needle) { return }
      if text.contains("\"op\":\"error\"") { fatalError("the server answered an error: \(text.prefix(300))") }
    }
    fatalError("a socket closed while waiting for \(op)")
  }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let certificate = folder.appendingPathComponent("cert.pem").path
let key = folder.appendingPathComponent("key.pem").path
try run("openssl", [
  "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
  "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
])

var logger = Logger(label: "instant-local")
logger.logLevel = .error
var configuration = InstantLocalConfiguration(port: 0, storage: .file(folder.appendingPathComponent("data.sqlite").path))
configuration.trustedProxies = ["127.0.0.1"]
let server = try InstantLocalServer(configuration: configuration, logger: logger)
let upstream = try await server.start()
let app = try server.apps.create(title: "TLS bench")

let port = freePort()
let path = folder.path
try """
  daemon off;
  master_process off;
  worker_rlimit_nofile 16384;
  pid \(path)/nginx.pid;
  error_log \(path)/error.log warn;
  events { worker_connections 8192; }
  http {
      access_log off;
      client_body_temp_path \(path)/body;
      proxy_temp_path \(path)/proxy;
      fastcgi_temp_path \(path)/fastcgi;
      uwsgi_temp_path \(path)/uwsgi;
      scgi_temp_path \(path)/scgi;
      map $http_upgrade $connection_upgrade { default upgrade; '' close; }
      server {
          listen 127.0.0.1:\(port) ssl;
          ssl_certificate     \(certificate);
          ssl_certificate_key \(key);
          location / {
              proxy_pass http://127.0.0.1:\(upstream);
              proxy_http_version 1.1;
              proxy_set_header Host $host;
              proxy_set_header Upgrade $http_upgrade;
              proxy_set_header Connection $connection_upgrade;
              proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
              proxy_read_timeout 3600s;
              proxy_buffering off;
          }
      }
  }
  """.write(toFile: "\(path)/nginx.conf", atomically: true, encoding: .utf8)
let nginx = Process()
nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
nginx.arguments = ["-c", "\(path)/nginx.conf", "-p", path, "-e", "\(path)/error.log"]
nginx.standardOutput = FileHandle.nullDevice
nginx.standardError = FileHandle.nullDevice
try nginx.run()
/// Stops nginx (SIGKILL: a child started from a pool thread may have SIGTERM blocked) and removes
/// the bench's files; `main.swift`'s top-level `defer` does not run when the program ends.
func cleanUp() {
  kill(nginx.processIdentifier, SIGKILL)
  nginx.waitUntilExit()
  try? FileManager.default.removeItem(at: folder)
}

// INSTANT_TLS_BENCH_DIRECT=1: the sessions skip nginx (plain ws:// to the server), for comparison.
let direct = ProcessInfo.processInfo.environment["INSTANT_TLS_BENCH_DIRECT"] == "1"
let secure = URL(string: direct ? "ws://127.0.0.1:\(upstream)/runtime/session" : "wss://127.0.0.1:\(port)/runtime/session")!
let sockets = NIOWebSocketTransport(pingInterval: .seconds(3600), trustedCertificatesFile: certificate)
func connected() async throws -> (any WebSocketConnection, Reader) {
  for attempt in 0..<200 {
    do {
      let connection = try await sockets.connect(to: secure)
      let reader = Reader(connection)
      connection.send(JSON.object(["op": "init", "app-id": .string(app.id), "versions": ["@instantdb/core": "v1.0.65"]]).serialized())
      try await reader.next("init-ok")
      return (connection, reader)
    } catch where attempt < 199 {
      try await Task.sleep(for: .milliseconds(25))  // nginx starting
    }
  }
  cleanUp()
  fatalError("no session through nginx on port \(port)")
}

// The query's entities, written by the admin.
let idAttr = UUID().uuidString.lowercased()
let titleAttr = UUID().uuidString.lowercased()
let entity = UUID().uuidString.lowercased()
let (writer, writerFrames) = try await connected()
writer.send(JSON.object([
  "op": "transact", "client-event-id": "schema",
  "tx-steps": [
    ["add-attr", ["id": .string(idAttr), "forward-identity": [.string(UUID().uuidString.lowercased()), "bench", "id"], "value-type": "blob", "cardinality": "one", "unique?": true, "index?": false]],
    ["add-attr", ["id": .string(titleAttr), "forward-identity": [.string(UUID().uuidString.lowercased()), "bench", "title"], "value-type": "blob", "cardinality": "one", "unique?": false, "index?": false]],
    ["add-triple", .string(entity), .string(idAttr), .string(entity)], ["add-triple", .string(entity), .string(titleAttr), "start"],
  ],
]).serialized())
try await writerFrames.next("transact-ok")

// 1. Sessions.
let opened = ContinuousClock.now
var subscribers: [(any WebSocketConnection, Reader)] = []
for _ in 0..<sessionCount {
  let (connection, reader) = try await connected()
  connection.send(JSON.object(["op": "add-query", "q": ["bench": [:]], "client-event-id": "q"]).serialized())
  try await reader.next("add-query-ok")
  subscribers.append((connection, reader))
}
print("\(sessionCount) sessions \(direct ? "straight to the server" : "through nginx (TLS)") subscribed in \(ContinuousClock.now - opened)")

var latencies: [Double] = []
for i in 0..<(writeCount + 10) {
  let sent = ContinuousClock.now
  writer.send(JSON.object([
    "op": "transact", "client-event-id": .string("w\(i)"), "tx-steps": [["add-triple", .string(entity), .string(titleAttr), .string("title \(i)")]],
  ]).serialized())
  try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await writerFrames.next("transact-ok") }
    for (_, reader) in subscribers { group.addTask { try await reader.next("refresh-ok") } }
    try await group.waitForAll()
  }
  if i >= 10 { latencies.append(milliseconds(ContinuousClock.now - sent)) }  // 10 warm-up writes
}
latencies.sort()
print(String(
  format: "write → refresh-ok at all %d sessions, %d writes: p50 %.2f ms  p99 %.2f ms  max %.2f ms",
  sessionCount, writeCount, percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.last ?? 0))
print(String(format: "RSS: this process (server and %d sessions) %.0f MB, nginx %.0f MB", sessionCount, rssMB(getpid()), rssMB(nginx.processIdentifier)))
for (connection, _) in subscribers { await connection.close() }
subscribers.removeAll()

// 2. Sign-ins.
let http = NIOHTTPTransport(trustedCertificatesFile: certificate)
func post(_ base: String, _ path: String, _ body: JSON, admin: Bool = false) async throws -> JSON {
  var request = URLRequest(url: URL(string: base + path)!)
  request.httpMethod = "POST"
  request.setValue("application/json", forHTTPHeaderField: "content-type")
  if admin {
    request.setValue("Bearer \(app.adminToken)", forHTTPHeaderField: "authorization")
    request.setValue(app.id, forHTTPHeaderField: "app-id")
  }
  request.httpBody = Data(body.serialized().utf8)
  let (status, data) = try await http.send(request)
  guard status == 200 else { fatalError("\(path) answered \(status): \(String(decoding: data, as: UTF8.self))") }
  return try JSON.parse(bytes: data)
}

func signIns(_ label: String, _ base: String, count: Int, _ one: @escaping @Sendable (Int) async throws -> Void) async throws {
  let started = ContinuousClock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for worker in 0..<16 {
      group.addTask { for n in stride(from: worker, to: count, by: 16) { try await one(n) } }
    }
    try await group.waitForAll()
  }
  let seconds = milliseconds(ContinuousClock.now - started) / 1000
  print(String(format: "%@: %d in %.2f s, %.0f a second", label, count, seconds, Double(count) / seconds))
}

for (name, base) in [("through nginx (TLS)", "https://127.0.0.1:\(port)"), ("straight to the server", "http://127.0.0.1:\(upstream)")] {
  try await signIns("guest sign-ins \(name)", base, count: signInCount) { _ in
    _ = try await post(base, "/runtime/auth/sign_in_guest", ["app-id": .string(app.id)])
  }
  try await signIns("magic-code sign-ins \(name)", base, count: signInCount / 2) { n in
    let email = "user\(n)-\(UUID().uuidString.prefix(8))@example.com"
    let code = try await post(base, "/admin/magic_code", ["email": .string(email)], admin: true)["code"]?.stringValue ?? ""
    _ = try await post(base, "/runtime/auth/verify_magic_code", ["app-id": .string(app.id), "email": .string(email), "code": .string(code)])
  }
}
await writer.close()
await server.stop()
cleanUp()
