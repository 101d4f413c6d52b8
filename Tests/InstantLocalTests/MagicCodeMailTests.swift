import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import Logging
import TestSupport
import Testing

/// Magic codes emailed by SMTP (docs/instant-local.md, "Magic codes by email"), against a real
/// SMTP server on loopback (`TestSMTPServer`: aiosmtpd with a certificate the test makes): the
/// message it received is read back, and the code in it signs in. Every log line is kept and
/// searched for the code and the password.
@Suite(
  "Magic codes by email", .serialized, .timeLimit(.minutes(10)),
  .enabled(if: TestSMTPServer.isAvailable, "python3 cannot import aiosmtpd (pip install aiosmtpd); CI installs it"))
struct MagicCodeMailTests {
  /// Runs `body` with a server mailing through `smtp` and an app titled "Mail App".
  func withMailingServer(
    _ smtp: SMTPConfiguration,
    _ body: (InstantLocalServer, AppCatalog.CreatedApp, Locked<[String]>) async throws -> Void
  ) async throws {
    var configuration = InstantLocalConfiguration.testing()
    configuration.mail = smtp
    let lines = Locked<[String]>([])
    var logger = CapturingLogHandler.logger(lines)
    logger.logLevel = .trace
    try await withInstantLocal(configuration: configuration, logger: logger) { server in
      let app = try server.apps.create(title: "Mail App")
      try await body(server, app, lines)
    }
  }

  func send(_ server: InstantLocalServer, _ appID: String, _ email: String) async throws -> (Int, JSON) {
    try await server.http("POST", "/runtime/auth/send_magic_code", body: ["app-id": .string(appID), "email": .string(email)])
  }

  func admin(_ server: InstantLocalServer, _ app: AppCatalog.CreatedApp, _ path: String, _ body: JSON) async throws -> FileHTTP.Answer {
    let base = try #require(await server.baseURL)
    return try await FileHTTP.send(
      "POST", base.appendingPathComponent(path),
      headers: ["app-id": app.id, "authorization": "Bearer \(app.adminToken)", "content-type": "application/json"],
      body: Data(body.serialized().utf8))
  }

  /// The six-digit code in a message's text.
  static func code(in received: TestSMTPServer.Received) -> String? {
    for part in received.decodedParts {
      if let range = part.range(of: #"\b[0-9]{6}\b"#, options: .regularExpression) { return String(part[range]) }
    }
    return nil
  }

  @Test("A code is emailed over STARTTLS with AUTH, from the server's sender under the app's title, and signs in once", arguments: [SMTPConfiguration.Security.startTLS, .tls])
  func emailedAndSignsIn(security: SMTPConfiguration.Security) async throws {
    try await TestSMTPServer.with(security: security) { smtp in
      try await withMailingServer(smtp.configuration()) { server, app, log in
        let (status, answer) = try await send(server, app.id, "Alice@Example.com")
        #expect(status == 200 && answer == ["sent": true])
        let messages = try await smtp.waitForMessages(1)
        let mail = try #require(messages.first)
        #expect(messages.count == 1)
        #expect(mail.tls, "the message went over TLS")
        #expect(mail.login == TestSMTPServer.user, "the server authenticated the mailer")
        #expect(mail.from == "login@example.com" && mail.to == ["alice@example.com"])
        #expect(mail.header("From") == "Mail App <login@example.com>")
        #expect(mail.header("To") == "<alice@example.com>")
        let code = try #require(Self.code(in: mail))
        #expect(mail.header("Subject") == "\(code) is your verification code for Mail App")
        #expect(mail.decodedParts.count == 2, "a text part and an HTML part")
        #expect(mail.decodedParts.contains { $0.contains("<h2") && $0.contains(code) && $0.contains("24 hours") })
        #expect(await server.lastMagicCode(appID: app.id, email: "alice@example.com") == nil, "with a mailer codes are kept only as hashes")

        let (signedIn, user) = try await server.verifyMagicCode(appID: app.id, email: "alice@example.com", code: code)
        #expect(signedIn == 200)
        #expect(user["user"]?["email"] == "alice@example.com")
        let (again, used) = try await server.verifyMagicCode(appID: app.id, email: "alice@example.com", code: code)
        #expect(again == 400 && used["type"] == "record-not-found", "a code signs in once")

        let lines = log.withLock { $0 }
        #expect(lines.contains { $0.contains("emailed") }, "the send is logged")
        #expect(!lines.contains { $0.contains(code) }, "the code is never logged")
        #expect(!lines.contains { $0.contains(TestSMTPServer.password) }, "nor the password")
      }
    }
  }

  @Test("The app's template and sender are used; the values put in the body are HTML-escaped")
  func template() async throws {
    try await TestSMTPServer.with { smtp in
      try await withMailingServer(smtp.configuration()) { server, app, _ in
        try server.apps.setEmailTemplate(
          appID: app.id,
          EmailTemplate(
            subject: "Your {app_title} code: {code}", body: "<p>Hi {user_email}, use <b>{code}</b> within {expiration}.</p>",
            senderEmail: "team@example.org", senderName: "The Team"))
        #expect(try await send(server, app.id, "o'neil@example.com").0 == 200)
        let mail = try #require(try await smtp.waitForMessages(1).first)
        let code = try #require(Self.code(in: mail))
        #expect(mail.header("Subject") == "Your Mail App code: \(code)")
        #expect(mail.header("From") == "The Team <team@example.org>")
        #expect(mail.header("Reply-To") == "<team@example.org>")
        #expect(mail.from == "team@example.org")
        #expect(mail.decodedParts.contains("<p>Hi o&#39;neil@example.com, use <b>\(code)</b> within 24 hours.</p>"))
        #expect(mail.decodedParts.contains("Hi o'neil@example.com, use \(code) within 24 hours."))
        #expect(try await server.verifyMagicCode(appID: app.id, email: "o'neil@example.com", code: code).0 == 200)

        // A template without {code} cannot be set.
        #expect(throws: InstantLocalError.self) {
          try server.apps.setEmailTemplate(appID: app.id, EmailTemplate(subject: "Hello", body: "<p>{code}</p>"))
        }
      }
    }
  }

  @Test("A template restored from a backup is sent, from the backup's sender")
  func restoredTemplate() async throws {
    try await TestSMTPServer.with { smtp in
      try await withMailingServer(smtp.configuration()) { server, app, _ in
        try server.apps.setEmailTemplate(
          appID: app.id,
          EmailTemplate(subject: "{code} opens {app_title}", body: "<p>{code}</p>", senderEmail: "old@example.org", senderName: "Old"))
        let archive = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: archive) }
        try server.apps.backup(appID: app.id, to: archive)
        let restored = try server.apps.restore(from: archive, appID: UUID().uuidString.lowercased(), title: "Restored")
        #expect(restored.emailTemplate)
        #expect(try server.apps.emailTemplate(appID: restored.app.id) == EmailTemplate(subject: "{code} opens {app_title}", body: "<p>{code}</p>", senderEmail: "old@example.org", senderName: "Old"))
        #expect(try await send(server, restored.app.id, "bo@example.com").0 == 200)
        let mail = try #require(try await smtp.waitForMessages(1).first)
        let code = try #require(Self.code(in: mail))
        #expect(mail.header("Subject") == "\(code) opens Restored")
        #expect(mail.header("From") == "Old <old@example.org>")
      }
    }
  }

  @Test("/admin/magic_code mails nothing; /admin/send_magic_code mails the code it returns")
  func adminRoutes() async throws {
    try await TestSMTPServer.with { smtp in
      try await withMailingServer(smtp.configuration()) { server, app, _ in
        let quiet = try await admin(server, app, "admin/magic_code", ["email": "cy@example.com"])
        #expect(quiet.status == 200)
        let quietCode = try #require(quiet.json["code"]?.stringValue)
        let sent = try await admin(server, app, "admin/send_magic_code", ["email": "cy@example.com"])
        #expect(sent.status == 200)
        let sentCode = try #require(sent.json["code"]?.stringValue)
        let messages = try await smtp.waitForMessages(1)
        #expect(messages.count == 1 && Self.code(in: messages[0]) == sentCode)
        // Both are valid at once, until used.
        #expect(try await server.verifyMagicCode(appID: app.id, email: "cy@example.com", code: quietCode).0 == 200)
        #expect(try await server.verifyMagicCode(appID: app.id, email: "cy@example.com", code: sentCode).0 == 200)
      }
    }
  }

  @Test("A mail that cannot be sent answers 500 email-send-failed, and logs why without the code or password")
  func failures() async throws {
    try await TestSMTPServer.with { smtp in
      // Wrong password.
      try await withMailingServer(smtp.configuration(password: "wrong-\(TestSMTPServer.password)")) { server, app, log in
        let (status, answer) = try await send(server, app.id, "dee@example.com")
        #expect(status == 500 && answer["type"] == "email-send-failed")
        #expect(answer["message"] == "We weren't able to send the email.")
        let lines = log.withLock { $0 }
        #expect(lines.contains { $0.contains("not sent (authentication)") })
        #expect(!lines.contains { $0.contains(TestSMTPServer.password) })
        #expect(!lines.contains { $0.range(of: #"\b[0-9]{6}\b"#, options: .regularExpression) != nil }, "no code in the log")
      }
      // Nobody listening.
      var closed = smtp.configuration()
      closed.port = portForRestarts()
      try await withMailingServer(closed) { server, app, log in
        let (status, _) = try await send(server, app.id, "dee@example.com")
        #expect(status == 500)
        #expect(log.withLock { $0 }.contains { $0.contains("not sent (connect)") })
      }
      #expect(try smtp.messages().isEmpty)
    }
    // STARTTLS asked of a server that does not offer it: refused before anything is sent.
    try await TestSMTPServer.with(security: .none) { plain in
      var configuration = plain.configuration()
      configuration.security = .startTLS
      configuration.credentials = .init(username: TestSMTPServer.user, password: TestSMTPServer.password)
      try await withMailingServer(configuration) { server, app, log in
        let (status, _) = try await send(server, app.id, "eve@example.com")
        #expect(status == 500)
        #expect(log.withLock { $0 }.contains { $0.contains("not sent (tls)") && $0.contains("STARTTLS") })
      }
      // Credentials with no TLS at all are never sent: refused before AUTH.
      var cleartext = plain.configuration()
      cleartext.credentials = .init(username: TestSMTPServer.user, password: TestSMTPServer.password)
      try await withMailingServer(cleartext) { server, app, log in
        let (status, _) = try await send(server, app.id, "eve@example.com")
        #expect(status == 500)
        #expect(log.withLock { $0 }.contains { $0.contains("not sent (authentication)") && $0.contains("without TLS") })
      }
      #expect(try plain.messages().isEmpty)
    }
  }

  @Test("Sends and tries are limited per email per hour: past the limit 429 rate-limited, as the reference answers")
  func rateLimited() async throws {
    var configuration = InstantLocalConfiguration.testing()
    configuration.magicCodesPerHour = 3
    try await withInstantLocal(configuration: configuration) { server in
      for _ in 0..<3 { #expect(try await server.sendMagicCode(email: "fay@example.com").0 == 200) }
      let (status, answer) = try await server.sendMagicCode(email: "fay@example.com")
      #expect(status == 429)
      #expect(answer["type"] == "rate-limited")
      #expect(answer["message"] == "Too many verification codes requested for this email. Please try again later.")
      // Another email has its own hour.
      #expect(try await server.sendMagicCode(email: "gus@example.com").0 == 200)
      // Three wrong tries use up gus's hour: the right code then waits too.
      let code = try #require(await server.lastMagicCode(appID: TestSession.appID, email: "gus@example.com"))
      for _ in 0..<3 { #expect(try await server.verifyMagicCode(email: "gus@example.com", code: "000000x").0 == 400) }
      #expect(try await server.verifyMagicCode(email: "gus@example.com", code: code).0 == 429)
    }
  }

  @Test("instant-local serve with --smtp-* options emails the code; options that do not fit together are refused by name")
  func serveOptions() async throws {
    let binary = try #require(ServerProcess.binary, "instant-local is built beside the tests")
    try await TestSMTPServer.with { smtp in
      let secret = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-password-\(UUID().uuidString)")
      try (TestSMTPServer.password + "\n").write(to: secret, atomically: true, encoding: .utf8)
      defer { try? FileManager.default.removeItem(at: secret) }
      let server = try await ServerProcess(arguments: [
        "--port", "0", "--memory", "--smtp-host", "127.0.0.1", "--smtp-port", "\(smtp.port)", "--smtp-user", TestSMTPServer.user,
        "--smtp-password-file", secret.path, "--smtp-ca-file", smtp.certificateFile, "--mail-from", "codes@example.com",
      ])
      defer { server.terminate() }
      #expect(server.stdout.text.contains("Mail:      magic codes emailed through 127.0.0.1:\(smtp.port)"))
      let (status, _) = try await HTTPTestClient(port: server.port).sendMagicCode(appID: TestSession.appID, email: "hal@example.com")
      #expect(status == 200)
      let mail = try #require(try await smtp.waitForMessages(1).first)
      #expect(mail.from == "codes@example.com" && mail.tls && mail.login == TestSMTPServer.user)
      let code = try #require(Self.code(in: mail))
      #expect(!server.stderr.text.contains(code) && !server.stdout.text.contains(code), "the code is not logged")
      #expect(!server.stderr.text.contains(TestSMTPServer.password))
    }
    for (arguments, named) in [
      (["--smtp-host", "127.0.0.1"], "--mail-from"),
      (["--smtp-host", "127.0.0.1", "--mail-from", "a@example.com", "--smtp-user", "u"], "INSTANT_LOCAL_SMTP_PASSWORD"),
      (["--smtp-host", "127.0.0.1", "--mail-from", "a@example.com", "--smtp-security", "ssl"], "--smtp-security"),
      (["--mail-from", "a@example.com"], "--smtp-host"),
      (["--magic-code-expiry-minutes", "0"], "--magic-code-expiry-minutes"),
      (["--smtp-host", "127.0.0.1", "--mail-from", "a@example.com", "--smtp-security", "none", "--smtp-user", "u",
        "--smtp-password-file", "/etc/hostname"], "--smtp-security none sends no credentials"),
    ] {
      let (status, output) = try await runToEnd(binary, ["--port", "0", "--memory"] + arguments)
      #expect(status != 0, "\(arguments) is refused")
      #expect(output.contains(named), "the message names \(named): \(output)")
    }
  }

  @Test("A whole scenario at trace level: no log line holds a refresh token, admin token, magic code or SMTP password")
  func noSecretInAnyLogLine() async throws {
    try await TestSMTPServer.with { smtp in
      try await withMailingServer(smtp.configuration()) { server, app, log in
        var secrets = [TestSMTPServer.password, app.adminToken]
        // A guest, upgraded by an emailed code; both tokens used on a socket.
        let (_, guestAnswer) = try await server.signInGuest(appID: app.id)
        let guest = try #require(guestAnswer["user"]?["refresh_token"]?.stringValue)
        secrets.append(guest)
        #expect(try await send(server, app.id, "ivy@example.com").0 == 200)
        let mail = try #require(try await smtp.waitForMessages(1).first)
        let code = try #require(Self.code(in: mail))
        secrets.append(code)
        let (_, user) = try await server.verifyMagicCode(
          appID: app.id, email: "ivy@example.com", code: code, refreshToken: .string(guest))
        let token = try #require(user["user"]?["refresh_token"]?.stringValue)
        secrets.append(token)
        let (session, initOK) = try await server.connect(appID: app.id, refreshToken: token)
        #expect(initOK["op"] == "init-ok")
        _ = try await session.request(["op": "add-query", "q": ["$users": [:]]])
        await session.close()
        // Refusals: a wrong code, a wrong token, the admin API with and without the token.
        #expect(try await server.verifyMagicCode(appID: app.id, email: "ivy@example.com", code: code).0 == 400)
        let (_, refused) = try await server.connect(appID: app.id, refreshToken: "x\(token)")
        #expect(refused["op"] == "error")
        #expect(try await admin(server, app, "admin/magic_code", ["email": "jo@example.com"]).status == 200)
        let (_, _) = try await server.http("POST", "/admin/magic_code", body: ["email": "jo@example.com"])

        let lines = log.withLock { $0 }
        #expect(lines.count > 10, "the scenario was logged at trace level")
        for secret in secrets {
          let leaking = lines.filter { $0.contains(secret) }
          #expect(leaking.isEmpty, "a secret reached the log: \(leaking)")
        }
      }
    }
  }

  @Test("An email that is not one address is refused (400) before any code is made or mail sent")
  func malformedEmail() async throws {
    try await TestSMTPServer.with { smtp in
      try await withMailingServer(smtp.configuration()) { server, app, _ in
        for email in ["a@b.com\r\nBcc: x@y.com", "no-at-sign", "two@@example.com", "<a@b.com>", "a b@example.com"] {
          let (status, answer) = try await send(server, app.id, email)
          #expect(status == 400, "\(email)")
          #expect(answer["type"] == "param-malformed")
        }
        #expect(try smtp.messages().isEmpty)
      }
    }
  }
}
