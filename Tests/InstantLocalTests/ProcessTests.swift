import Foundation
import InstantCore
import Testing
import TestSupport

@Suite("the instant-local executable", .enabled(if: ServerProcess.binary != nil, "instant-local was not built"))
struct ProcessTests {
  @Test func committedTransactionsSurviveKill9() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("instant-local-\(newID())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let arguments = ["--port", "0", "--data", dir.appendingPathComponent("data.sqlite").path, "--log-level", "notice"]
    let idAttr = newID()
    let title = newID()
    let g = newID()

    let first = try await ServerProcess(arguments: arguments)
    let (a, _) = try await TestSession.connected(port: first.port)
    let schema = [blobAttr(idAttr, "goals", "id", unique: true), blobAttr(title, "goals", "title")]
    let ok = try await a.request(transact(schema + createEntity(g, idAttr: idAttr, [title: "Survives"])))
    let txID = try #require(ok["tx-id"]?.intValue)
    first.kill()
    await a.close()

    let second = try await ServerProcess(arguments: arguments)
    defer { second.terminate() }
    let (b, _) = try await TestSession.connected(port: second.port)
    let result = try await b.request(["op": "add-query", "q": ["goals": [:]]])
    #expect(triples(result["result"]).contains { $0[0] == .string(g) && $0[2] == "Survives" })
    #expect(result["processed-tx-id"]?.intValue == txID)
    let next = try await b.request(["op": "transact", "tx-steps": [["add-triple", .string(g), .string(title), "Later"]]])
    #expect((next["tx-id"]?.intValue ?? 0) > txID)

    // The magic code goes to the server log.
    _ = try await HTTPTestClient(port: second.port).sendMagicCode(appID: TestSession.appID, email: "log@example.com")
    let log = try await second.stderr.wait(for: "magic code for log@example.com")
    #expect(log.contains("app_id=\(TestSession.appID)"), "the line names its app: \(log)")
    await b.close()
  }

  @Test("apps oauth-clients add, list and remove on a data file; serve --unverified-id-tokens says what it does")
  func oauthClientsCommand() async throws {
    let binary = try #require(ServerProcess.binary)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("instant-local-\(newID())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = ["--data", dir.appendingPathComponent("data.sqlite").path]
    let (created, output) = try await runToEnd(binary, ["apps", "create", "--title", "Clients"] + data)
    #expect(created == 0, "\(output)")
    let app = try #require(output.split(separator: "\n").first { $0.hasPrefix("app id:") }?.split(separator: " ").last.map(String.init))

    let add = ["apps", "oauth-clients", "add", "--app", app, "--name", "apple", "--provider", "apple"]
    let (added, addOutput) = try await runToEnd(binary, add + ["--client-id", "com.example.web", "--audience", "com.example.ios"] + data)
    #expect(added == 0, "\(addOutput)")
    let (_, list) = try await runToEnd(binary, ["apps", "oauth-clients", "list", "--app", app] + data)
    #expect(
      list.contains("apple  apple  com.example.web  https://appleid.apple.com/.well-known/openid-configuration  also: com.example.ios"),
      "\(list)")
    let (badProvider, badOutput) = try await runToEnd(
      binary, ["apps", "oauth-clients", "add", "--app", app, "--name", "x", "--provider", "github", "--client-id", "c"] + data)
    #expect(badProvider != 0)
    #expect(badOutput.contains("--provider is google, apple or oidc"), "\(badOutput)")
    let (removed, _) = try await runToEnd(binary, ["apps", "oauth-clients", "remove", "--app", app, "--name", "apple"] + data)
    #expect(removed == 0)
    let (_, empty) = try await runToEnd(binary, ["apps", "oauth-clients", "list", "--app", app] + data)
    #expect(empty.contains("has no OAuth clients"), "\(empty)")

    let server = try await ServerProcess(arguments: ["--port", "0", "--memory", "--unverified-id-tokens"])
    defer { server.terminate() }
    #expect(server.stdout.text.contains("WARNING:   ID tokens are not verified"))
    _ = try await server.stderr.wait(for: "ID tokens are NOT verified")
  }

  @Test("apps oauth-clients add --client-secret-file and apps redirect-origins add, list and remove; bad input refused by name")
  func webFlowCommands() async throws {
    let binary = try #require(ServerProcess.binary)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("instant-local-\(newID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = ["--data", dir.appendingPathComponent("data.sqlite").path]
    let (_, output) = try await runToEnd(binary, ["apps", "create", "--title", "Web"] + data)
    let app = try #require(output.split(separator: "\n").first { $0.hasPrefix("app id:") }?.split(separator: " ").last.map(String.init))
    let secretFile = dir.appendingPathComponent("secret")
    try Data("google-secret-value\n".utf8).write(to: secretFile)
    let (added, addOutput) = try await runToEnd(
      binary,
      ["apps", "oauth-clients", "add", "--app", app, "--name", "google", "--provider", "google", "--client-id", "123.apps",
       "--client-secret-file", secretFile.path] + data)
    #expect(added == 0, "\(addOutput)")
    #expect(addOutput.contains("ID tokens and the web flow"))
    #expect(!addOutput.contains("google-secret-value"), "the secret is not printed")
    let (_, list) = try await runToEnd(binary, ["apps", "oauth-clients", "list", "--app", app] + data)
    #expect(list.contains("web flow") && !list.contains("google-secret-value"), "\(list)")
    let (badApple, badAppleOutput) = try await runToEnd(
      binary,
      ["apps", "oauth-clients", "add", "--app", app, "--name", "apple", "--provider", "apple", "--client-id", "com.example",
       "--client-secret-file", secretFile.path, "--apple-team-id", "T", "--apple-key-id", "K"] + data)
    #expect(badApple != 0)
    #expect(badAppleOutput.contains("must be the private key (PEM"), "\(badAppleOutput)")

    for (flag, value) in [("--origin", "https://app.example.com"), ("--origin", "http://localhost:3000"), ("--scheme", "myapp")] {
      let (status, text) = try await runToEnd(binary, ["apps", "redirect-origins", "add", "--app", app, flag, value] + data)
      #expect(status == 0, "\(text)")
    }
    let (_, origins) = try await runToEnd(binary, ["apps", "redirect-origins", "list", "--app", app] + data)
    #expect(origins.contains("origin  https://app.example.com"), "\(origins)")
    #expect(origins.contains("origin  http://localhost:3000"))
    #expect(origins.contains("scheme  myapp"))
    for (flag, value, message) in [
      ("--origin", "https://app.example.com/path", "--origin is an http(s) origin"), ("--origin", "ftp://x", "--origin is an http(s) origin"),
      ("--scheme", "https", "--scheme is an app's own URL scheme"), ("--scheme", "java script", "--scheme is an app's own URL scheme"),
    ] {
      let (status, text) = try await runToEnd(binary, ["apps", "redirect-origins", "add", "--app", app, flag, value] + data)
      #expect(status != 0)
      #expect(text.contains(message), "\(text)")
    }
    let (removed, _) = try await runToEnd(binary, ["apps", "redirect-origins", "remove", "--app", app, "--scheme", "myapp"] + data)
    #expect(removed == 0)
    let (_, after) = try await runToEnd(binary, ["apps", "redirect-origins", "list", "--app", app] + data)
    #expect(!after.contains("myapp"))
  }

  @Test("--max-queued-bytes: a positive size starts the server, anything else is refused by name")
  func maxQueuedBytesOption() async throws {
    let server = try await ServerProcess(arguments: ["--port", "0", "--memory", "--max-queued-bytes", "1048576"])
    #expect(server.port > 0)
    server.terminate()

    for bad in ["0", "-5", "lots"] {
      let (status, output) = try await runToEnd(
        try #require(ServerProcess.binary), ["--port", "0", "--memory", "--max-queued-bytes", bad])
      #expect(status != 0, "\(bad) is refused")
      #expect(output.contains("--max-queued-bytes"), "the message names the option: \(output)")
    }
  }

  @Test("--max-message-bytes: zero, a negative size and a word are refused by the option's name")
  func maxMessageBytesOption() async throws {
    for bad in [["--max-message-bytes", "0"], ["--max-message-bytes", "-5"], ["--max-message-bytes=0"], ["--max-message-bytes", "lots"]] {
      let (status, output) = try await runToEnd(try #require(ServerProcess.binary), ["--port", "0", "--memory"] + bad)
      #expect(status != 0, "\(bad) is refused")
      #expect(output.contains("--max-message-bytes"), "the message names the option: \(output)")
      #expect(!output.contains("Missing value"), "-5 is read as the value: \(output)")
    }
  }

  @Test("--host with an address this machine lacks gets advice about the address, not the port")
  func hostThisMachineLacks() async throws {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): documentation only, never a machine's own address.
    let (status, output) = try await runToEnd(try #require(ServerProcess.binary), ["--host", "192.0.2.1", "--port", "0", "--memory"])
    #expect(status != 0)
    #expect(output.contains("192.0.2.1: it is not an address of this machine"), "\(output)")
    #expect(output.contains("--host 127.0.0.1"))
    #expect(!output.contains("--port"), "nothing about the port: \(output)")
  }

  @Test("A --data path that cannot be a file is refused in one sentence, not an NSError dump")
  func badDataPath() async throws {
    let (status, output) = try await runToEnd(try #require(ServerProcess.binary), ["--port", "0", "--data", "/dev/null/demos.sqlite"])
    #expect(status != 0)
    #expect(output.contains("cannot open the database at /dev/null/demos.sqlite: "), "\(output)")
    #expect(!output.contains("Error Domain") && !output.contains("UserInfo"), "\(output)")
    #expect(output.split(separator: "\n").count == 1, "one line: \(output)")
  }
}
