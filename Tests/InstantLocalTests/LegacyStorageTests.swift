import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

/// The storage routes InstantDB deprecated in January 2025 (docs/files.md): upload URLs given
/// under the `create` rule and used once within 5 minutes, the admin's download URL by path, and
/// the admin's old file list.
@Suite("Deprecated storage routes")
struct LegacyStorageTests {
  let rules = FilesTests.ownFolderRules

  @Test("A client's upload URL: given under the create rule, uploads once, then is spent; an old one is refused")
  func clientUploadURL() async throws {
    try await withInstantLocal { server in
      try await server.setRules(rules)
      let http = try await FileHTTP(server)
      let ada = try await FilesTests().user(server)
      let base = try #require(await server.baseURL)

      func ask(_ body: JSON, token: String?) async throws -> FileHTTP.Answer {
        try await FileHTTP.send(
          "POST", base.appendingPathComponent("storage/signed-upload-url"),
          headers: ["authorization": "Bearer \(token ?? "undefined")", "content-type": "application/json"],
          body: Data(body.serialized().utf8))
      }
      let given = try await ask(["app_id": .string(TestSession.appID), "filename": .string("\(ada.id)/notes.txt")], token: ada.token)
      #expect(given.status == 200)
      let url = try #require(given.json["data"]?.stringValue)
      #expect(url.hasPrefix(base.absoluteString + "/storage/"))
      #expect(url.hasSuffix("/consume-upload-url"))

      let put = try await FileHTTP.send("PUT", try #require(URL(string: url)), headers: ["content-type": "text/plain"], body: Data("hello".utf8))
      #expect(put.status == 200)
      #expect(put.json["data"]?["size"] == 5)
      let id = try #require(put.json["data"]?["id"]?.stringValue)

      // The file is there, with its type, at the path the URL was given for.
      let download = try await http.downloadURL("\(ada.id)/notes.txt", token: ada.token)
      let fileURL = try #require(download.json["data"]?.stringValue)
      let bytes = try await FileHTTP.get(fileURL)
      #expect(bytes.data == Data("hello".utf8))
      #expect(bytes.headers["content-type"] == "text/plain")

      // Spent: a second upload to it is refused and changes nothing.
      let again = try await FileHTTP.send("PUT", try #require(URL(string: url)), body: Data("overwritten".utf8))
      #expect(again.status == 400)
      #expect(again.json["type"] == "validation-failed")
      #expect(again.json["message"]?.stringValue?.contains("The upload URL is expired or invalid.") == true)
      #expect(try await FileHTTP.get(fileURL).data == Data("hello".utf8))

      // The create rule is checked when the URL is asked for: not in someone else's folder, not as a guest.
      let theirs = try await ask(["app-id": .string(TestSession.appID), "path": "someone/else.txt"], token: ada.token)
      #expect(theirs.status == 400)
      #expect(theirs.json == storageDenied("create"))
      #expect(try await ask(["app_id": .string(TestSession.appID), "filename": .string("\(ada.id)/x.txt")], token: nil).status == 400)
      let missing = try await ask(["app_id": .string(TestSession.appID)], token: ada.token)
      #expect(missing.json["type"] == "param-missing")

      // One made more than 5 minutes ago is refused, and is spent too.
      let old = try #require(server.uploadURL(appID: TestSession.appID, path: "\(ada.id)/old.txt", madeAt: Date().addingTimeInterval(-301)))
      let late = try await FileHTTP.send("PUT", try #require(URL(string: old)), body: Data("late".utf8))
      #expect(late.status == 400)
      #expect(late.json["type"] == "validation-failed")
      let fresh = try #require(server.uploadURL(appID: TestSession.appID, path: "\(ada.id)/fresh.txt", madeAt: Date().addingTimeInterval(-290)))
      #expect(try await FileHTTP.send("PUT", try #require(URL(string: fresh)), body: Data("ok".utf8)).status == 200)

      // An id that was never given, or is not a UUID.
      let unknown = base.appendingPathComponent("storage/\(UUID().uuidString.lowercased())/consume-upload-url")
      #expect(try await FileHTTP.send("PUT", unknown, body: Data("x".utf8)).status == 400)
      let malformed = try await FileHTTP.send("PUT", base.appendingPathComponent("storage/nope/consume-upload-url"), body: Data("x".utf8))
      #expect(malformed.json["type"] == "param-malformed")
      _ = id
    }
  }

  @Test("The admin's upload URL, download URL by path and old file list, with its token only")
  func adminRoutes() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Legacy")
      let base = try #require(await server.baseURL)
      let admin = ["app-id": app.id, "authorization": "Bearer \(app.adminToken)", "content-type": "application/json"]

      let given = try await FileHTTP.send(
        "POST", base.appendingPathComponent("admin/storage/signed-upload-url"), headers: admin,
        body: Data(#"{"filename":"reports/q1.csv"}"#.utf8))
      #expect(given.status == 200)
      let url = try #require(given.json["data"]?.stringValue)
      let put = try await FileHTTP.send("PUT", try #require(URL(string: url)), headers: ["content-type": "text/csv"], body: Data("a,b\n1,2\n".utf8))
      #expect(put.status == 200)
      let location = try #require(put.json["data"]?["location-id"]?.stringValue)

      var http = try await FileHTTP(server)
      http.appID = app.id
      let download = try await FileHTTP.send(
        "GET", try http.url("admin/storage/signed-download-url", ["filename": "reports/q1.csv"]), headers: admin)
      let fileURL = try #require(download.json["data"]?.stringValue)
      #expect(try await FileHTTP.get(fileURL).data == Data("a,b\n1,2\n".utf8))
      let none = try await FileHTTP.send(
        "GET", try http.url("admin/storage/signed-download-url", ["filename": "reports/none.csv"]), headers: admin)
      #expect(none.json == ["data": .null])

      let list = try await FileHTTP.send("GET", base.appendingPathComponent("admin/storage/files"), headers: admin)
      #expect(list.status == 200)
      let rows = try #require(list.json["data"]?.arrayValue)
      #expect(rows.count == 1)
      #expect(rows.first?["name"] == "reports/q1.csv")
      #expect(rows.first?["size"] == 8)
      #expect(rows.first?["etag"] == .null)
      let key = try #require(rows.first?["key"]?.stringValue)
      #expect(key.hasPrefix(app.id + "/") && key.hasSuffix("/" + location))

      // With a token that is not the app's: the reference's refusal, nothing given.
      var wrong = admin
      wrong["authorization"] = "Bearer \(UUID().uuidString.lowercased())"
      for (method, path, body) in [
        ("POST", "admin/storage/signed-upload-url", Data(#"{"filename":"x"}"#.utf8)), ("GET", "admin/storage/files", nil),
      ] {
        let refused = try await FileHTTP.send(method, base.appendingPathComponent(path), headers: wrong, body: body)
        #expect(refused.status == 400, "\(path)")
        #expect(refused.json["hint"]?["record-type"] == "app-admin-token", "\(path)")
      }
      let refusedDownload = try await FileHTTP.send(
        "GET", try http.url("admin/storage/signed-download-url", ["filename": "reports/q1.csv"]), headers: wrong)
      #expect(refusedDownload.status == 400)
      #expect(refusedDownload.json["data"] == nil)
    }
  }

  @Test("The object key's bin is Java's String.hashCode, abs, mod 10")
  func objectKeyBin() {
    // Worked by hand from Java's definition: s[0]*31^(n-1) + … + s[n-1], in 32-bit arithmetic.
    #expect(S3ObjectKey.bin("a") == 97 % 10)
    #expect(S3ObjectKey.bin("ab") == (97 * 31 + 98) % 10)
    // "polygenelubricants".hashCode() is Integer.MIN_VALUE: Math.abs keeps it negative and
    // Clojure's mod makes it 2.
    #expect(S3ObjectKey.bin("polygenelubricants") == 2)
  }
}
