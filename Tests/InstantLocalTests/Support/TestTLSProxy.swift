import Foundation
import NIOCore
import NIOPosix
import TestSupport
import Testing

/// nginx (Debian's package; `.ci/run` installs it) on loopback as docs/deploy.md sets it up: TLS
/// with a certificate the test makes, WebSockets and `X-Forwarded-For` passed through, uploads
/// streamed, to an instant-local on `upstream`. The server block below is deploy.md's, with the
/// test's addresses and paths.
struct TestTLSProxy {
  let port: Int
  /// The certificate nginx presents, for 127.0.0.1: trust it with `trustedCertificatesFile`.
  let certificateFile: String
  private let folder: URL
  private let process: SpawnedProcess

  static let binary: String? = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Whether nginx is here; without it the proxy test is skipped (and fails when
  /// `INSTANT_REQUIRE_NGINX` is set, as in CI, so it is never skipped there unnoticed).
  static let isAvailable: Bool = {
    if binary == nil, ProcessInfo.processInfo.environment["INSTANT_REQUIRE_NGINX"] != nil {
      fatalError("INSTANT_REQUIRE_NGINX is set but nginx is not installed (apt-get install nginx)")
    }
    return binary != nil
  }()

  /// A port free now (bound and released), for the proxy: the server's public URL names it before
  /// nginx starts.
  static func freePort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress?.port ?? 0
    try await channel.close()
    return port
  }

  /// Runs `body` with nginx on `port` in front of `upstream`, stopped after.
  static func with<T>(port: Int, upstream: Int, _ body: (TestTLSProxy) async throws -> T) async throws -> T {
    let proxy = try await start(port: port, upstream: upstream)
    let result: Result<T, any Error>
    do {
      result = .success(try await body(proxy))
    } catch {
      result = .failure(error)
    }
    proxy.stop()
    return try result.get()
  }

  private static func start(port: Int, upstream: Int) async throws -> TestTLSProxy {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (certificate, key) = try await TestCertificate.make(in: folder)
    let path = folder.path
    let configuration = """
      daemon off;
      master_process off;
      pid \(path)/nginx.pid;
      error_log \(path)/error.log warn;
      events { worker_connections 4096; }
      http {
          access_log off;
          client_body_temp_path \(path)/body;
          proxy_temp_path \(path)/proxy;
          fastcgi_temp_path \(path)/fastcgi;
          uwsgi_temp_path \(path)/uwsgi;
          scgi_temp_path \(path)/scgi;

          map $http_upgrade $connection_upgrade {
              default upgrade;
              ''      close;
          }

          server {
              listen 127.0.0.1:\(port) ssl;
              ssl_certificate     \(certificate);
              ssl_certificate_key \(key);

              client_max_body_size 256m;
              proxy_request_buffering off;

              location / {
                  proxy_pass http://127.0.0.1:\(upstream);
                  proxy_http_version 1.1;
                  proxy_set_header Host $host;
                  proxy_set_header Upgrade $http_upgrade;
                  proxy_set_header Connection $connection_upgrade;
                  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                  proxy_set_header X-Forwarded-Proto $scheme;
                  proxy_read_timeout 3600s;
                  proxy_send_timeout 3600s;
                  proxy_buffering off;
              }
          }
      }
      """
    let file = folder.appendingPathComponent("nginx.conf")
    try configuration.write(to: file, atomically: true, encoding: .utf8)
    let process = try SpawnedProcess(try #require(binary), ["-c", file.path, "-p", path, "-e", "\(path)/error.log"], output: .null)
    let proxy = TestTLSProxy(port: port, certificateFile: certificate, folder: folder, process: process)
    // Listening once a TCP connect succeeds.
    for _ in 0..<200 {
      if let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get() {
        try? await channel.close()
        return proxy
      }
      guard process.isRunning else { break }
      try await Task.sleep(for: .milliseconds(25))
    }
    let log = (try? String(contentsOfFile: "\(path)/error.log", encoding: .utf8)) ?? ""
    proxy.stop()
    throw ProxyFailed(description: "nginx did not start on 127.0.0.1:\(port): \(log)")
  }

  struct ProxyFailed: Error, CustomStringConvertible { var description: String }

  /// `kill -9` and reaped (a child started from a pool thread may have SIGTERM blocked).
  func stop() {
    process.kill9()
    try? FileManager.default.removeItem(at: folder)
  }
}

/// A self-signed certificate for 127.0.0.1 and localhost, valid a day, made with `openssl`.
enum TestCertificate {
  /// Writes `cert.pem` and `key.pem` into `folder`; returns their paths.
  static func make(in folder: URL) async throws -> (certificate: String, key: String) {
    let (certificate, key) = (folder.appendingPathComponent("cert.pem").path, folder.appendingPathComponent("key.pem").path)
    let openssl = try SpawnedProcess(
      "openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
        "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ], output: .null)
    await offThePool { openssl.waitUntilExit() }
    #expect(openssl.terminationStatus == 0, "openssl made the test certificate")
    return (certificate, key)
  }
}
