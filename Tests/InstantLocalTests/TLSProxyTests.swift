import Foundation
import InstantCore
import InstantDB
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@testable import InstantLocal

/// docs/deploy.md's setup, run: instant-local behind nginx with TLS on loopback (a certificate the
/// test makes), magic codes emailed through a real SMTP server, and two of our clients speaking only
/// `https://` and `wss://` to nginx: sign-in by the emailed code, sync both ways, a file up and
/// down through its signed `https` URL. A client that does not trust the certificate gets nowhere.
@Suite(
  "Through nginx with TLS", .timeLimit(.minutes(10)),
  .enabled(if: TestTLSProxy.isAvailable, "nginx is not installed (apt-get install nginx); CI installs it"),
  .enabled(if: TestSMTPServer.isAvailable, "python3 cannot import aiosmtpd (pip install aiosmtpd); CI installs it"))
struct TLSProxyTests {
  @Test("Our client through nginx: emailed-code sign-in, wss sync both ways, a file up and down; an untrusted certificate is refused")
  func throughNginx() async throws {
    try await TestSMTPServer.with(security: .startTLS) { smtp in
      let proxyPort = try await TestTLSProxy.freePort()
      let base = try #require(URL(string: "https://127.0.0.1:\(proxyPort)"))
      var configuration = InstantLocalConfiguration.testing()
      configuration.mail = smtp.configuration()
      configuration.trustedProxies = ["127.0.0.1"]
      configuration.publicURL = base
      configuration.limits = .production
      try await withInstantLocal(configuration: configuration) { server in
        let app = try server.apps.create(title: "Behind nginx")
        try await server.setRules([
          "$files": ["allow": ["view": "auth.id != null", "create": "auth.id != null", "delete": "auth.id != null"]]
        ])
        try await TestTLSProxy.with(port: proxyPort, upstream: try await server.boundPort) { proxy in
          func client(trusting file: String?) -> InstantClient {
            InstantClient(
              appId: app.id, apiURI: base, websocketURI: URL(string: "wss://127.0.0.1:\(proxyPort)/runtime/session")!,
              storage: .memory, transport: NIOWebSocketTransport(trustedCertificatesFile: file),
              http: NIOHTTPTransport(trustedCertificatesFile: file, timeout: backstop))
          }
          let ann = client(trusting: proxy.certificateFile)
          let bob = client(trusting: proxy.certificateFile)
          let stranger = client(trusting: nil)
          defer {
            Task {
              await ann.shutdown()
              await bob.shutdown()
              await stranger.shutdown()
            }
          }

          // The system's roots do not include the test's certificate: TLS is really checked.
          let refused = await #expect(throws: InstantClientError.self) { try await stranger.signInAsGuest() }
          #expect(refused?.kind == .offline, "\(String(describing: refused))")

          // Sign-in by emailed code, every request through nginx.
          try await ann.sendMagicCode(email: "ann@example.com")
          let mail = try #require(try await smtp.waitForMessages(1).first)
          #expect(mail.to == ["ann@example.com"])
          let code = try #require(MagicCodeMailTests.code(in: mail))
          let user = try await ann.signInWithMagicCode(email: "ann@example.com", code: code)
          #expect(user.email == "ann@example.com")
          _ = try await bob.signInAsGuest()

          // Sync over wss://, both ways.
          let todo = InstantID.make()
          _ = try await eventually("ann connected") { await ann.status == .authenticated ? true : nil }
          _ = try await eventually("bob connected") { await bob.status == .authenticated ? true : nil }
          try await ann.transact(.update("todos", .id(todo), ["title": "Ship it"])).synced()
          _ = try await eventually("bob sees ann's todo") {
            try await bob.queryOnce(["todos": [:]]).data["todos"]?.arrayValue?.first?["title"] == "Ship it" ? true : nil
          }
          try await bob.transact(.update("todos", .id(todo), ["title": "Shipped"])).synced()
          _ = try await eventually("ann sees bob's edit") {
            try await ann.queryOnce(["todos": [:]]).data["todos"]?.arrayValue?.first?["title"] == "Shipped" ? true : nil
          }

          // A file up through nginx, its URL the public https one, the bytes back down.
          let bytes = Data((0..<300_000).map { UInt8($0 % 251) })
          let file = try await ann.storage.uploadFile("\(user.id)/photo.bin", bytes, contentType: "application/octet-stream")
          #expect(file.size == bytes.count)
          let row = try await eventually("bob sees the file") {
            try await bob.queryOnce(["$files": [:]]).data["$files"]?.arrayValue?.first
          }
          let url = try #require(row["url"]?.stringValue.flatMap(URL.init(string:)))
          #expect(url.absoluteString.hasPrefix(base.absoluteString + "/"), "\(url)")
          let (status, downloaded) = try await NIOHTTPTransport(trustedCertificatesFile: proxy.certificateFile).send(URLRequest(url: url))
          #expect(status == 200)
          #expect(downloaded == bytes)
        }
      }
    }
  }
}
