import Foundation
import InstantCore
import InstantLocal
import TestSupport
import Testing

/// A real SMTP server on loopback for the mail tests: Python's `aiosmtpd` (from PyPI; `.ci/run`
/// installs it), with STARTTLS, implicit TLS or none, a certificate the test makes with `openssl`,
/// and one user. Every message it accepts is written to a folder, which ``messages()`` reads.
struct TestSMTPServer {
  let port: Int
  let security: SMTPConfiguration.Security
  /// The certificate the server presents (trust it with ``SMTPConfiguration/trustedCertificatesFile``).
  let certificateFile: String
  private let folder: URL
  private let process: SpawnedProcess

  static let user = "mailer"
  static let password = "s3cret-pass-\(UUID().uuidString.prefix(8))"

  /// Whether the server can run here; without it mail tests are skipped (and fail when
  /// `INSTANT_REQUIRE_SMTP` is set, as in CI, so they are never skipped there unnoticed).
  static let isAvailable: Bool = {
    guard let probe = try? SpawnedProcess("python3", ["-c", "import aiosmtpd"], output: .null) else { return false }
    probe.waitUntilExit()
    let available = probe.terminationStatus == 0
    if !available, ProcessInfo.processInfo.environment["INSTANT_REQUIRE_SMTP"] != nil {
      fatalError("INSTANT_REQUIRE_SMTP is set but python3 cannot import aiosmtpd (pip install aiosmtpd)")
    }
    return available
  }()

  /// A message the server accepted.
  struct Received {
    var from: String
    var to: [String]
    /// The user that authenticated, if any.
    var login: String?
    /// Whether the connection was TLS when the message came.
    var tls: Bool
    var message: String

    /// A header's value (first occurrence), unfolded.
    func header(_ name: String) -> String? {
      let head = message.components(separatedBy: "\r\n\r\n").first ?? ""
      let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ")
      return unfolded.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    /// Every base64 body part, decoded (the text and the HTML).
    var decodedParts: [String] {
      let blocks = message.components(separatedBy: "\r\n\r\n")
      return zip(blocks, blocks.dropFirst()).compactMap { head, body in
        guard head.lowercased().contains("content-transfer-encoding: base64") else { return nil }
        let encoded = body.components(separatedBy: "\r\n").prefix { !$0.hasPrefix("--") }.joined()
        return Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) }
      }
    }
  }

  /// Runs `body` with a server, stopped after.
  static func with<T>(
    security: SMTPConfiguration.Security = .startTLS, _ body: (TestSMTPServer) async throws -> T
  ) async throws -> T {
    let server = try await start(security: security)
    let result: Result<T, any Error>
    do {
      result = .success(try await body(server))
    } catch {
      result = .failure(error)
    }
    await server.stop()
    return try result.get()
  }

  /// `kill -9` (a child started from a pool thread may have SIGTERM blocked), then reaped by asking
  /// the kernel (Foundation's `waitUntilExit` can miss the exit and spin; see ChildProcess).
  private func stop() async {
    process.terminate(SIGKILL)
    while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    try? FileManager.default.removeItem(at: folder)
  }

  private static func start(security: SMTPConfiguration.Security) async throws -> TestSMTPServer {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("mail"), withIntermediateDirectories: true)
    let (certificate, key) = try await TestCertificate.make(in: folder)
    let script = folder.appendingPathComponent("server.py")
    try Self.script.write(to: script, atomically: true, encoding: .utf8)
    let process = try SpawnedProcess(
      "python3", [script.path, security.rawValue, certificate, key, folder.appendingPathComponent("mail").path],
      environment: ProcessInfo.processInfo.environment.merging(
        ["SMTP_USER": user, "SMTP_PASSWORD": password, "PYTHONUNBUFFERED": "1"]) { $1 },
      output: .pipe)
    let output = try #require(process.standardOutput)
    let line = await Task.detached {
      var data = Data()
      while !data.contains(10) {
        let chunk = output.availableData
        if chunk.isEmpty { break }
        data.append(chunk)
      }
      return String(decoding: data, as: UTF8.self)
    }.value
    guard let port = try? JSON.parse(line.trimmingCharacters(in: .whitespacesAndNewlines))["port"]?.numberValue else {
      process.kill9()
      throw CancellationError()
    }
    return TestSMTPServer(port: Int(port), security: security, certificateFile: certificate, folder: folder, process: process)
  }

  /// The mailer configuration that reaches this server as its user.
  func configuration(from: String = "login@example.com", password: String = TestSMTPServer.password) -> SMTPConfiguration {
    SMTPConfiguration(
      host: "127.0.0.1", port: port, security: security,
      credentials: security == .none ? nil : .init(username: Self.user, password: password),
      from: MailAddress(email: from, name: "Server Sender"), trustedCertificatesFile: certificateFile, timeout: backstop)
  }

  /// The messages accepted so far, oldest first.
  func messages() throws -> [Received] {
    let mail = folder.appendingPathComponent("mail")
    return try FileManager.default.contentsOfDirectory(atPath: mail.path).sorted().map { name in
      let json = try JSON.parse(String(contentsOf: mail.appendingPathComponent(name), encoding: .utf8))
      return Received(
        from: json["from"]?.stringValue ?? "", to: json["to"]?.arrayValue?.compactMap(\.stringValue) ?? [],
        login: json["login"]?.stringValue, tls: json["tls"]?.boolValue ?? false, message: json["data"]?.stringValue ?? "")
    }
  }

  /// Waits up to 10 s for `count` messages.
  func waitForMessages(_ count: Int) async throws -> [Received] {
    for _ in 0..<1000 {
      let messages = try self.messages()
      if messages.count >= count { return messages }
      try await Task.sleep(for: .milliseconds(10))
    }
    return try messages()
  }

  private static let script = #"""
    import json, os, socket, ssl, sys, threading
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    mode, certfile, keyfile, outdir = sys.argv[1:5]
    user, password = os.environ["SMTP_USER"].encode(), os.environ["SMTP_PASSWORD"].encode()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certfile, keyfile)
    count = 0

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            global count
            count += 1
            auth = session.auth_data
            login = auth.login.decode() if isinstance(auth, LoginPassword) else None
            record = {"from": envelope.mail_from, "to": envelope.rcpt_tos, "login": login,
                      "tls": server.transport.get_extra_info("ssl_object") is not None,
                      "data": envelope.content.decode("utf-8", "replace")}
            with open(os.path.join(outdir, "%06d.json" % count), "w") as f:
                json.dump(record, f)
            return "250 OK"

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == user and auth_data.password == password
        # handled=False: the server answers 535 itself (the default leaves the client waiting).
        return AuthResult(success=ok, handled=False, auth_data=auth_data)

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    options = dict(hostname="127.0.0.1", port=port, authenticator=authenticator)
    if mode == "starttls":
        controller = Controller(Handler(), tls_context=context, require_starttls=True, auth_require_tls=True, **options)
    elif mode == "tls":
        controller = Controller(Handler(), ssl_context=context, auth_require_tls=False, **options)
    else:
        controller = Controller(Handler(), auth_require_tls=True, **options)
    controller.start()
    print(json.dumps({"port": port}), flush=True)
    threading.Event().wait()
    """#
}
