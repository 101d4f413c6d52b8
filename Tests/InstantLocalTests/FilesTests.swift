import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing
internal import OrderedCollections

/// `$files` storage over real HTTP against a running instant-local (docs/files.md): uploads,
/// the `url` queries get, the bytes behind it, replacing and deleting files, the sweep.
@Suite("$files storage")
struct FilesTests {
  /// Each user may upload, see and delete files under their own id.
  static let ownFolderRules: JSON = [
    "$files": [
      "allow": [
        "view": "isOwner", "create": "isOwner", "delete": "isOwner", "update": "isOwner",
      ],
      "bind": ["isOwner", "auth.id != null && data.path.startsWith(auth.id + '/')"],
    ]
  ]

  /// A signed-in guest: id and refresh token.
  func user(_ server: InstantLocalServer) async throws -> (id: String, token: String) {
    let (_, body) = try await server.signInGuest()
    return (try #require(body["user"]?["id"]?.stringValue), try #require(body["user"]?["refresh_token"]?.stringValue))
  }

  @Test("Upload, query from another session, download, replace, delete, sweep")
  func fileLifecycle() async throws {
    try await withInstantLocal { server in
      try await server.setRules(Self.ownFolderRules)
      let http = try await FileHTTP(server)
      let ada = try await user(server)
      let path = "\(ada.id)/cat.png"
      let first = randomBytes(3000)

      let uploaded = try await http.upload(path, first, token: ada.token, contentType: "image/png")
      #expect(uploaded.status == 200)
      let data = try #require(uploaded.json["data"])
      let id = try #require(data["id"]?.stringValue)
      let firstLocation = try #require(data["location-id"]?.stringValue)
      #expect(data["size"] == 3000)
      #expect(data.objectValue?.keys.sorted() == ["id", "location-id", "size"])

      // Another session of the same user sees it, with a url that serves the bytes.
      let (session, _) = try await server.connect(refreshToken: ada.token)
      let added = try await session.request(["op": "add-query", "q": ["$files": [:]]])
      let row = try #require(files(in: added["result"])[id])
      #expect(row["path"] == .string(path))
      #expect(row["size"] == 3000)
      #expect(row["content-type"] == "image/png")
      #expect(row["location-id"] == .string(firstLocation))
      let firstURL = try #require(row["url"]?.stringValue)
      #expect(firstURL.hasPrefix(try #require(await server.baseURL).absoluteString + "/storage/files/"))
      let downloaded = try await FileHTTP.get(firstURL)
      #expect(downloaded.status == 200)
      #expect(downloaded.data == first)
      #expect(downloaded.headers["content-type"] == "image/png")
      #expect(downloaded.headers["content-disposition"] == "inline")
      #expect(downloaded.headers["cache-control"] == "public, max-age=86400, immutable")

      // Replacing it keeps the id, with a new location, new bytes and a new url; the old blob
      // stays until the sweep's grace period has passed.
      let second = randomBytes(1200)
      let replaced = try await http.upload(" \(path) ", second, token: ada.token, contentType: "image/jpeg")
      #expect(replaced.json["data"]?["id"] == .string(id))
      let secondLocation = try #require(replaced.json["data"]?["location-id"]?.stringValue)
      #expect(secondLocation != firstLocation)
      let refresh = try await session.next(op: "refresh-ok")
      let refreshed = try #require(files(in: refresh["computations"]?[0]?["instaql-result"])[id])
      #expect(refreshed["size"] == 1200)
      #expect(refreshed["location-id"] == .string(secondLocation))
      let secondURL = try #require(refreshed["url"]?.stringValue)
      #expect(secondURL != firstURL)
      let again = try await FileHTTP.get(secondURL)
      #expect(again.data == second)
      #expect(again.headers["content-type"] == "image/jpeg")
      #expect(try await FileHTTP.get(firstURL).data == first)
      #expect(try server.sweepFiles() == 0)
      #expect(try await FileHTTP.get(firstURL).data == first)
      // After the grace period, the sweep removes the replaced blob and keeps the current one.
      let later = Date().addingTimeInterval(3601)
      #expect(try server.sweepFiles(now: later) == 1)
      #expect(try await FileHTTP.get(firstURL).status == 404)
      #expect(try await FileHTTP.get(secondURL).data == second)

      // Deleting it removes the row at once, and the blobs once the grace period has passed.
      let deleted = try await http.delete(path, token: ada.token)
      #expect(deleted.status == 200)
      #expect(deleted.json == ["data": ["id": .string(id)]])
      let emptied = try await session.next(op: "refresh-ok")
      let remaining = files(in: emptied["computations"]?[0]?["instaql-result"])
      #expect(remaining.isEmpty)
      #expect(try await http.delete(path, token: ada.token).json == ["data": ["id": .null]])
      let blob = server.blobFile(appID: TestSession.appID, locationID: secondLocation)
      #expect(FileManager.default.fileExists(atPath: blob.path))
      #expect(try server.sweepFiles() == 0)
      #expect(try await FileHTTP.get(secondURL).status == 200)
      #expect(try server.sweepFiles(now: Date().addingTimeInterval(3601)) == 1)
      #expect(!FileManager.default.fileExists(atPath: blob.path))
      #expect(try await FileHTTP.get(secondURL).status == 404)
      await session.close()
    }
  }

  @Test("Without rules storage is closed to users and guests, as on InstantDB; rules open it per path")
  func permissions() async throws {
    try await withInstantLocal { server in
      let http = try await FileHTTP(server)
      let ada = try await user(server)
      let bob = try await user(server)

      // No rules: nobody but the admin may upload, signed in or not ("Bearer undefined").
      for token in [nil, ada.token, "not-a-uuid"] {
        let refused = try await http.upload("\(ada.id)/a.txt", Data("a".utf8), token: token)
        #expect(refused.status == 400)
        #expect(refused.json == storageDenied("create"))
      }
      #expect(try await http.delete("\(ada.id)/a.txt", token: ada.token).json == storageDenied("delete"))

      // Rules: each user in their own folder.
      try await server.setRules(Self.ownFolderRules)
      #expect(try await http.upload("\(ada.id)/a.txt", Data("a".utf8), token: nil).json == storageDenied("create"))
      #expect(try await http.upload("\(bob.id)/a.txt", Data("a".utf8), token: ada.token).json == storageDenied("create"))
      let adas = try await http.upload("\(ada.id)/a.txt", Data("a".utf8), token: ada.token)
      #expect(adas.status == 200)
      let adaFile = try #require(adas.json["data"]?["id"]?.stringValue)
      #expect(try await http.upload("\(bob.id)/b.txt", Data("b".utf8), token: bob.token).status == 200)

      // The view rule hides the other user's files, from queries and download URLs.
      let (bobSession, _) = try await server.connect(refreshToken: bob.token)
      let seen = files(in: try await bobSession.request(["op": "add-query", "q": ["$files": [:]]])["result"])
      #expect(seen.values.map { $0["path"] } == [.string("\(bob.id)/b.txt")])
      #expect(seen[adaFile] == nil)
      #expect(try await http.downloadURL("\(ada.id)/a.txt", token: bob.token).json == storageDenied("view"))
      let link = try await http.downloadURL("\(ada.id)/a.txt", token: ada.token)
      #expect(try await FileHTTP.get(try #require(link.json["data"]?.stringValue)).data == Data("a".utf8))
      #expect(try await http.downloadURL("\(ada.id)/none.txt", token: ada.token).json == ["data": .null])

      // Deletes follow the delete rule.
      #expect(try await http.delete("\(ada.id)/a.txt", token: bob.token).json == storageDenied("delete"))
      #expect(try await http.delete("\(ada.id)/a.txt", token: ada.token).json == ["data": ["id": .string(adaFile)]])
      await bobSession.close()
    }
  }

  @Test("A tampered, missing or expired signature is refused (403); a missing blob is 404")
  func signedURLs() async throws {
    try await withInstantLocal { server in
      try await server.setRules(Self.ownFolderRules)
      let http = try await FileHTTP(server)
      let ada = try await user(server)
      let uploaded = try await http.upload("\(ada.id)/s.txt", Data("secret".utf8), token: ada.token)
      let location = try #require(uploaded.json["data"]?["location-id"]?.stringValue)
      let url = try #require(server.fileURL(appID: TestSession.appID, locationID: location, madeAt: Date()))
      #expect(try await FileHTTP.get(url).data == Data("secret".utf8))
      // Valid for 7 days from the start of the UTC day it is made: the same URL all day.
      let midnight = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
      let morning = server.fileURL(appID: TestSession.appID, locationID: location, madeAt: midnight.addingTimeInterval(60))
      #expect(morning == server.fileURL(appID: TestSession.appID, locationID: location, madeAt: midnight.addingTimeInterval(86_000)))
      #expect(morning != server.fileURL(appID: TestSession.appID, locationID: location, madeAt: midnight.addingTimeInterval(86_400)))
      #expect(morning?.contains("expires=\(Int(midnight.timeIntervalSince1970) + 7 * 86_400)&") == true)

      let signature = try #require(url.range(of: "signature=")).upperBound
      let last = url[url.index(before: url.endIndex)]
      let tampered = String(url.dropLast()) + (last == "0" ? "1" : "0")
      let unsigned = String(url[..<signature].dropLast("&signature=".count))
      let otherFile = url.replacingOccurrences(of: location, with: newID())
      let longer = url.replacingOccurrences(of: "expires=", with: "expires=1")
      for bad in [tampered, unsigned, otherFile, longer] {
        let refused = try await FileHTTP.get(bad)
        #expect(refused.status == 403, "\(bad)")
        #expect(refused.json["type"] == "permission-denied")
        #expect(refused.json["message"] == "This file URL's signature is not valid.")
      }
      let old = try #require(
        server.fileURL(appID: TestSession.appID, locationID: location, madeAt: Date().addingTimeInterval(-8 * 86_400)))
      let expired = try await FileHTTP.get(old)
      #expect(expired.status == 403)
      #expect(expired.json["message"] == "This file URL has expired; query the file again for a new url.")

      // A well-signed URL of a blob that is not there.
      let nowhere = try #require(server.fileURL(appID: TestSession.appID, locationID: newID(), madeAt: Date()))
      let missing = try await FileHTTP.get(nowhere)
      #expect(missing.status == 404)
      #expect(missing.json["type"] == "record-not-found")
    }
  }

  @Test("Behind a proxy, URLs use the configured public address (a path prefix kept)")
  func publicURL() async throws {
    var configuration = InstantLocalConfiguration.testing()
    configuration.publicURL = URL(string: "https://files.example.com/instant/")
    try await withInstantLocal(configuration: configuration) { server in
      try await server.setRules(["$files": ["allow": ["$default": "true"]]])
      let http = try await FileHTTP(server)
      let location = try #require(try await http.upload("p.txt", Data("p".utf8), token: nil).json["data"]?["location-id"]?.stringValue)
      let url = try await http.downloadURL("p.txt", token: nil).json["data"]?.stringValue
      #expect(url?.hasPrefix("https://files.example.com/instant/storage/files/\(TestSession.appID)/\(location)?expires=") == true)
    }
  }

  @Test("An upload over the size limit is refused and the file it would replace is intact", arguments: [false, true])
  func sizeLimit(streamed: Bool) async throws {
    var configuration = InstantLocalConfiguration.testing()
    configuration.maxUploadBytes = 1000
    try await withInstantLocal(configuration: configuration) { server in
      try await server.setRules(Self.ownFolderRules)
      let http = try await FileHTTP(server)
      let ada = try await user(server)
      let path = "\(ada.id)/doc.bin"
      let small = randomBytes(1000)
      let kept = try await http.upload(path, small, token: ada.token, stream: streamed)
      #expect(kept.status == 200)
      let before = try #require(kept.json["data"])

      let refused = try await http.upload(path, randomBytes(5000), token: ada.token, stream: streamed)
      #expect(refused.status == 400)
      #expect(refused.json["type"] == "validation-failed")
      #expect(
        refused.json["message"] == "The file is larger than this server's upload limit of 1000 bytes (--max-upload-bytes).")

      let link = try await http.downloadURL(path, token: ada.token)
      let url = try #require(link.json["data"]?.stringValue)
      #expect(url.contains(try #require(before["location-id"]?.stringValue)))
      #expect(try await FileHTTP.get(url).data == small)
      let (session, _) = try await server.connect(refreshToken: ada.token)
      let row = files(in: try await session.request(["op": "add-query", "q": ["$files": [:]]])["result"])
      #expect(row.count == 1)
      #expect(row.values.first?["size"] == 1000)
      let leftovers = try FileManager.default.contentsOfDirectory(
        atPath: server.filesDirectory.appendingPathComponent(".uploads").path)
      #expect(leftovers.isEmpty)
      await session.close()
    }
  }

  @Test("A 5 MB upload streams to disk and comes back byte for byte")
  func largeUpload() async throws {
    try await withInstantLocal { server in
      try await server.setRules(Self.ownFolderRules)
      let http = try await FileHTTP(server)
      let ada = try await user(server)
      let bytes = randomBytes(5 << 20)
      let uploaded = try await http.upload("\(ada.id)/big.bin", bytes, token: ada.token, stream: true)
      #expect(uploaded.json["data"]?["size"] == .number(Double(5 << 20)))
      let url = try #require(try await http.downloadURL("\(ada.id)/big.bin", token: ada.token).json["data"]?.stringValue)
      let downloaded = try await FileHTTP.get(url)
      #expect(downloaded.data == bytes)
      #expect(downloaded.headers["content-type"] == "application/octet-stream")
      #expect(downloaded.headers["content-length"] == "\(5 << 20)")
    }
  }

  @Test("A large file downloads whole: the connection is not torn down while the response is still queued")
  func largeDownload() async throws {
    try await withInstantLocal { server in
      try await server.setRules(["$files": ["allow": ["$default": "true"]]])
      let http = try await FileHTTP(server)
      let bytes = randomBytes(48 << 20)
      #expect(try await http.upload("big.bin", bytes, token: nil).status == 200)
      let url = try #require(try await http.downloadURL("big.bin", token: nil).json["data"]?.stringValue)
      let downloaded = try await FileHTTP.get(url)
      #expect(downloaded.data.count == bytes.count)
      #expect(downloaded.data == bytes)
    }
  }

  @Test("`Expect: 100-continue` is answered at once, so clients do not wait before sending a large body")
  func expectContinue() async throws {
    try await withInstantLocal { server in
      try await server.setRules(["$files": ["allow": ["$default": "true"]]])
      let port = try await server.boundPort
      let body = String(repeating: "x", count: 2 << 20)
      let head =
        "PUT /storage/upload HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\napp-id: \(TestSession.appID)\r\npath: c.txt\r\n"
        + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n"
      let (interim, final) = try await RawConnection.with(port: port) { session in
        #expect(await session.send(head))
        let interim = await session.readResponse()
        #expect(await session.send(body))
        return (interim, await session.readResponse())
      }
      #expect(interim?.statusLine == "HTTP/1.1 100 Continue")
      #expect(final?.status == 200)
      let answer = try JSON.parse(try #require(final?.body))
      #expect(answer["data"]?["size"] == .number(Double(2 << 20)))
    }
  }

  @Test("url is given when a $files form has no fields or asks for it, at any depth, and never stored")
  func urlFollowsFields() async throws {
    try await withInstantLocal { server in
      try await server.setRules(["$files": ["allow": ["view": "true", "create": "true"]]])
      let http = try await FileHTTP(server)
      let uploaded = try await http.upload("pics/a.png", Data("a".utf8), token: nil)
      let id = try #require(uploaded.json["data"]?["id"]?.stringValue)
      let (session, _) = try await server.connect()
      func row(_ q: JSON) async throws -> [String: JSON]? {
        files(in: try await session.request(["op": "add-query", "q": q])["result"])[id]
      }
      #expect(try await row(["$files": [:]])?["url"] != nil)
      #expect(try await row(["$files": ["$": ["fields": ["path"]]]])?["url"] == nil)
      let onlyURL = try await row(["$files": ["$": ["fields": ["url"]]]])
      #expect(onlyURL?["url"] != nil)
      #expect(onlyURL?["location-id"] == nil)

      // Through a link: posts.avatar → $files.
      let postsID = newID()
      let avatar = newID()
      let post = newID()
      let linked = try await session.request(
        transact([
          blobAttr(postsID, "posts", "id", unique: true, indexed: true),
          [
            "add-attr",
            [
              "id": .string(avatar), "forward-identity": [.string(newID()), "posts", "avatar"],
              "reverse-identity": [.string(newID()), "$files", "post"], "value-type": "ref", "cardinality": "one",
              "unique?": false, "index?": false,
            ],
          ],
          addTriple(post, postsID, .string(post)), addTriple(post, avatar, .string(id)),
        ]))
      #expect(linked["op"] == "transact-ok")
      #expect(try await row(["posts": ["avatar": [:]]])?["url"] != nil)
      #expect(try await row(["posts": ["avatar": ["$": ["fields": ["path"]]]]])?["url"] == nil)
      await session.close()
    }
  }

  @Test("Transactions: $files may be deleted and renamed under the rules; its system columns never change")
  func transactions() async throws {
    try await withInstantLocal { server in
      let http = try await FileHTTP(server)
      let ada = try await user(server)
      let bob = try await user(server)
      try await server.setRules(Self.ownFolderRules)
      let uploaded = try await http.upload("\(ada.id)/t.txt", Data("t".utf8), token: ada.token)
      let id = try #require(uploaded.json["data"]?["id"]?.stringValue)
      let (adaSession, _) = try await server.connect(refreshToken: ada.token)
      let (bobSession, _) = try await server.connect(refreshToken: bob.token)

      for (attr, label, value) in [
        (FilesAttr.size, "size", JSON.number(1)), (FilesAttr.contentType, "content-type", "text/html"),
        (FilesAttr.locationID, "location-id", .string(newID())), (FilesAttr.url, "url", "https://example.com"),
      ] {
        let refused = try await adaSession.request(transact([addTriple(id, attr, value)]))
        #expect(refused["type"] == "validation-failed", "\(label)")
        #expect(
          refused["message"]
            == .string("Validation failed for tx-step: $files.\(label) is a system column. You aren't allowed to change this directly."))
      }
      // The path may change, under the update rule.
      #expect(try await bobSession.request(transact([addTriple(id, FilesAttr.path, .string("\(bob.id)/t.txt"))]))["type"] == "permission-denied")
      #expect(try await adaSession.request(transact([addTriple(id, FilesAttr.path, .string("\(ada.id)/renamed.txt"))]))["op"] == "transact-ok")
      // Deleting follows the delete rule, with the whole entity as data.
      let delete: JSON = ["delete-entity", .string(id), "$files"]
      #expect(try await bobSession.request(transact([delete]))["type"] == "permission-denied")
      #expect(try await adaSession.request(transact([delete]))["op"] == "transact-ok")
      #expect(try await http.downloadURL("\(ada.id)/renamed.txt", token: ada.token).json == ["data": .null])

      // Without rules: $files is closed to transactions and queries.
      let other = try await http.upload("\(ada.id)/u.txt", Data("u".utf8), token: ada.token)
      let otherID = try #require(other.json["data"]?["id"]?.stringValue)
      try await server.setRules(nil)
      #expect(try await adaSession.request(transact([["delete-entity", .string(otherID), "$files"]]))["type"] == "permission-denied")
      #expect(try await adaSession.request(transact([addTriple(otherID, FilesAttr.path, "x.txt")]))["type"] == "permission-denied")
      #expect(files(in: try await adaSession.request(["op": "add-query", "q": ["$files": [:]]])["result"]).isEmpty)
      await adaSession.close()
      await bobSession.close()
    }
  }

  @Test("Without rules an admin session sees $files and a guest's does not, on the same query, refresh after refresh")
  func adminAndGuestWithoutRules() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Files")
      let port = try await server.boundPort
      let admin = TestSession(port: port, appID: app.id)
      #expect(try await admin.request(["op": "init", "app-id": .string(app.id), "__admin-token": .string(app.adminToken)])["op"] == "init-ok")
      let (guest, _) = try await server.connect(appID: app.id)
      let q: JSON = ["$files": [:]]
      #expect(try await admin.request(["op": "add-query", "q": q])["op"] == "add-query-ok")
      #expect(try await guest.request(["op": "add-query", "q": q])["op"] == "add-query-ok")

      var http = try await FileHTTP(server)
      http.appID = app.id
      let uploaded = try await FileHTTP.send(
        "PUT", http.base.appendingPathComponent("admin/storage/upload"),
        headers: ["app-id": app.id, "authorization": "Bearer \(app.adminToken)", "path": "a.txt"], body: Data("a".utf8))
      let id = try #require(uploaded.json["data"]?["id"]?.stringValue)
      let adminRefresh = try await admin.next(op: "refresh-ok")
      let adminSees = files(in: adminRefresh["computations"]?[0]?["instaql-result"])
      #expect(adminSees[id]?["url"] != nil)
      // The guest's result did not change: no refresh with the file comes.
      let guestFrames = await guest.collect(for: .milliseconds(300))
      #expect(!guestFrames.contains { $0.serialized().contains(id) })
      await admin.close()
      await guest.close()
    }
  }

  @Test("Files on disk sit beside the data file and survive a restart; the URL secret stays the same")
  func durableFiles() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(newID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let dataFile = directory.appendingPathComponent("data.sqlite").path
    let configuration = InstantLocalConfiguration.testing(dataFile: dataFile)
    let (location, url) = try await withInstantLocal(configuration: configuration) { server in
      try await server.setRules(["$files": ["allow": ["$default": "true"]]])
      let http = try await FileHTTP(server)
      let uploaded = try await http.upload("keep.txt", Data("kept".utf8), token: nil, contentType: "text/plain")
      let location = try #require(uploaded.json["data"]?["location-id"]?.stringValue)
      #expect(server.blobFile(appID: TestSession.appID, locationID: location).path == "\(dataFile).files/\(TestSession.appID)/\(location)")
      return (location, try #require(server.fileURL(appID: TestSession.appID, locationID: location, madeAt: Date())))
    }
    try await withInstantLocal(configuration: configuration) { server in
      // Another port, the same signature.
      let again = try #require(server.fileURL(appID: TestSession.appID, locationID: location, madeAt: Date()))
      #expect(URLComponents(string: again)?.query == URLComponents(string: url)?.query)
      let served = try await FileHTTP.get(again)
      #expect(served.data == Data("kept".utf8))
      #expect(served.headers["content-type"] == "text/plain")
    }
  }
}
