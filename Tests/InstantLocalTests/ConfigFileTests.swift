import Foundation
import InstantLocal
import Testing
import TestSupport

/// `instant-local serve --config FILE` (docs/instant-local.md, "Configuration file"), run as the
/// executable: a file that starts the server as it says, every option a key, and each mistake
/// refused before the server starts with the file, line and key.
@Suite("serve --config", .enabled(if: ServerProcess.binary != nil, "instant-local was not built"))
struct ConfigFileTests {
  /// Writes `text` to a fresh file and returns its path.
  static func file(_ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("instant-local-\(newID()).conf")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  static func run(_ arguments: [String]) async throws -> (Int32, String) {
    try await runToEnd(try #require(ServerProcess.binary), arguments)
  }

  @Test("A file starts the server as it says; an option on the command line wins over it")
  func fileStartsServer() async throws {
    let path = try Self.file(
      """
      # instant-local for the test
      port = 0          # any free port
      memory = true
      strict-apps = false
      trusted-proxy = ["127.0.0.1", "::1"]
      max-connections = 5
      sign-ins-per-ip-per-minute = 0   # no limit
      log-level = "notice"
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let server = try await ServerProcess(arguments: ["--config", path, "--max-connections", "7"])
    defer { server.terminate() }
    #expect(server.port > 0)
    let banner = server.stdout.text
    #expect(banner.contains("data: in memory"), "\(banner)")
    #expect(banner.contains("connections 7 (per address 200)"), "the command line's 7 wins: \(banner)")
    #expect(banner.contains("sign-ins a minute per address no limit"), "\(banner)")
    #expect(banner.contains("X-Forwarded-For believed from 127.0.0.1, ::1"), "\(banner)")
  }

  @Test("Every option serve --help lists is a key of the file, read the way the file is read")
  func everyOptionIsAKey() async throws {
    let (_, help) = try await Self.run(["serve", "--help"])
    let options = Set(help.split(whereSeparator: { !$0.isLetter && $0 != "-" }).filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) })
      .subtracting(["help", "config", "version"])
    #expect(options.count >= 29, "\(options.sorted())")
    // In-process (each `Process.run` is a chance of Foundation's crash in it, swift-corelibs-foundation
    // #5472): a key the file accepts turns into its option; one it does not know is refused.
    for option in options.sorted() {
      let accepted = ["true", "1", "\"x\"", "[\"127.0.0.1\"]"].contains { value in
        (try? ConfigFile.arguments("\(option) = \(value)", path: "f"))?.contains("--\(option)") == true
      }
      #expect(accepted, "--\(option) has no key in the configuration file")
    }
  }

  @Test(
    "Each mistake is refused, naming the file, line and key",
    arguments: [
      ("port = 0\nsmtp-hots = \"smtp.example.com\"\n", ":2: unknown key smtp-hots (did you mean smtp-host?)"),
      ("port = \"8888\"\n", ":1: port takes a whole number, got \"8888\""),
      ("memory = yes\n", ":1: memory takes true or false, got yes"),
      ("host = 127.0.0.1\n", ":1: host takes a string in double quotes, got 127.0.0.1"),
      ("trusted-proxy = \"127.0.0.1\"\n", ":1: trusted-proxy takes a list of strings"),
      ("smtp-password = \"hunter2\"\n", ":1: smtp-password: secrets do not go in the configuration file; use smtp-password-file"),
      ("metrics-token = \"0123456789abcdef0\"\n", ":1: metrics-token: secrets do not go in the configuration file"),
      ("port = 1\n\nport = 2\n", ":3: port is set twice (first on line 1)"),
      ("config = \"other.conf\"\n", ":1: config: a configuration file cannot name another"),
      ("just words\n", ":1: expected `key = value`, got just words"),
    ])
  func mistakes(text: String, message: String) throws {
    let error = #expect(throws: ConfigFile.Mistake.self) { try ConfigFile.arguments(text, path: "/etc/instant.conf") }
    let description = try #require(error?.description)
    #expect(description.hasPrefix("/etc/instant.conf" + message), "\(description)")
    #expect(!description.contains("hunter2"), "a secret is not repeated back")
  }

  @Test("The executable stops on a mistake in the file before it starts, and says where")
  func mistakeStopsTheServer() async throws {
    let path = try Self.file("port = 0\nsmtp-password = \"hunter2\"\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (status, output) = try await Self.run(["--config", path])
    #expect(status != 0)
    #expect(output.contains(path + ":2: smtp-password: secrets do not go in the configuration file"), "\(output)")
    #expect(!output.contains("hunter2"))
  }

  @Test("Comments, quotes, escapes and lists read as written")
  func syntax() throws {
    let arguments = try ConfigFile.arguments(
      """
      # a comment
      host = "127.0.0.1"   # after a value
      mail-from = "a#b@example.com"
      smtp-user = "quote \\" and \\\\ backslash"
      trusted-proxy = ["127.0.0.1", "::1"]
      memory = false
      strict-apps = true
      """, path: "f")
    #expect(
      arguments == [
        "--host", "127.0.0.1", "--mail-from", "a#b@example.com", "--smtp-user", "quote \" and \\ backslash",
        "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1", "--strict-apps",
      ])
  }

  @Test("A value the option refuses is named by its key; a file that cannot be read is named")
  func valuesValidatedAsOptions() async throws {
    for (text, message) in [
      ("port = 99999\n", "--port must be between 0 and 65535"),
      ("max-connections = -1\n", "--max-connections must be 0 (no limit) or more, got -1"),
      ("ping-interval = 0\n", "--ping-interval must be between 1 and 3600 seconds, got 0"),
    ] {
      let path = try Self.file(text)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let (status, output) = try await Self.run(["--config", path])
      #expect(status != 0)
      #expect(output.contains(message), "\(output)")
    }
    let (missing, missingOutput) = try await Self.run(["--config", "/nonexistent/instant-local.conf"])
    #expect(missing != 0)
    #expect(missingOutput.contains("--config: cannot read /nonexistent/instant-local.conf"), "\(missingOutput)")
  }
}
