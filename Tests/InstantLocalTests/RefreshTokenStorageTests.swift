import Foundation
import GRDB
import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

/// Refresh tokens are kept as their SHA-256 (docs/security.md): a copy of the data file does not
/// let anyone sign in as its users, tokens keep working across restarts, an older data file's
/// tokens are hashed when it opens, and no error answer repeats a token.
@Suite("Refresh tokens at rest")
struct RefreshTokenStorageTests {
  func dataFileBytes(_ directory: URL) throws -> Data {
    var bytes = Data()
    for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      bytes += (try? Data(contentsOf: directory.appendingPathComponent(file))) ?? Data()
    }
    return bytes
  }

  func verify(_ server: InstantLocalServer, _ token: String) async throws -> (Int, JSON) {
    try await server.http(
      "POST", "/runtime/auth/verify_refresh_token", body: ["app-id": .string(TestSession.appID), "refresh-token": .string(token)])
  }

  @Test("Not in the data file, valid after a restart; an older file's plain tokens are hashed on opening; refusals do not echo them")
  func hashedAtRest() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("data.sqlite").path

    let (token, userID) = try await withInstantLocal(configuration: .testing(dataFile: path)) { server in
      let (_, body) = try await server.signInGuest()
      return (try #require(body["user"]?["refresh_token"]?.stringValue), try #require(body["user"]?["id"]?.stringValue))
    }
    let bytes = try dataFileBytes(directory)
    #expect(!bytes.isEmpty)
    #expect(bytes.range(of: Data(token.utf8)) == nil, "the refresh token is in the data file")

    // A data file from before hashing: a token stored as is, and the migration not yet run.
    let legacy = UUID().uuidString.lowercased()
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try await queue.write { db in
      try db.execute(
        sql: "INSERT INTO refresh_tokens (token, app_id, user_id, created_at) VALUES (?, ?, ?, 0)",
        arguments: [legacy, TestSession.appID, userID])
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3 refresh tokens hashed'")
    }
    try queue.close()

    try await withInstantLocal(configuration: .testing(dataFile: path)) { server in
      for candidate in [token, legacy, token.uppercased()] {
        let (status, body) = try await verify(server, candidate)
        #expect(status == 200, "\(body)")
        #expect(body["user"]?["id"] == .string(userID))
      }
      // A refusal names the record, not the token.
      let unknown = UUID().uuidString.lowercased()
      let (status, body) = try await verify(server, unknown)
      #expect(status == 400)
      #expect(body["hint"]?["record-type"] == "app-user")
      #expect(!body.serialized().contains(unknown))
      // Signing out forgets it.
      let (signedOut, _) = try await server.http(
        "POST", "/runtime/signout", body: ["app_id": .string(TestSession.appID), "refresh_token": .string(legacy)])
      #expect(signedOut == 200)
      #expect(try await verify(server, legacy).0 == 400)
    }
    let after = try dataFileBytes(directory)
    #expect(after.range(of: Data(legacy.utf8)) == nil, "the older file's token is still in it")
    #expect(after.range(of: Data(token.utf8)) == nil)
  }
}
