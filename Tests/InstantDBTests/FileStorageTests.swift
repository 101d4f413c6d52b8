import Foundation
import InstantCore
import InstantDB
import InstantLocal
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `db.storage` end to end against instant-local (docs/files.md): a signed-in user uploads under
/// the `$files` rules, another client sees the file with its `url`, the bytes come back.
@Suite("File storage", .timeLimit(.minutes(10)))
struct FileStorageTests {
  @Test("Upload as the signed-in user; another client queries $files and downloads it; replace; delete")
  func uploadQueryDownloadDelete() async throws {
    try await withServer { server in
      try await server.server.setRules([
        "$files": [
          "allow": ["view": "true", "create": "auth.id != null && data.path.startsWith(auth.id + '/')", "delete": "auth.id != null"]
        ]
      ])
      let db = server.client()
      let other = server.client()
      defer {
        Task {
          await db.shutdown()
          await other.shutdown()
        }
      }

      // Signed out, the server takes the upload for a guest's: refused.
      let refused = await #expect(throws: InstantClientError.self) {
        try await db.storage.uploadFile("anyone/a.txt", Data("a".utf8))
      }
      #expect(refused?.kind == .fileRejected)
      #expect(refused?.isPermissionDenied == true)
      #expect(refused?.message == "Permission denied: not has-storage-permission?")

      let user = try await db.signInAsGuest()
      let png = Data((0..<2000).map { UInt8($0 % 251) })
      let file = try await db.storage.uploadFile(
        "\(user.id)/cat.png", png, contentType: "image/png", contentDisposition: "attachment; filename=\"cat.png\"")
      #expect(file.path == "\(user.id)/cat.png")
      #expect(file.size == 2000)
      let elsewhere = await #expect(throws: InstantClientError.self) {
        try await db.storage.uploadFile("someone-else/cat.png", png)
      }
      #expect(elsewhere?.serverType == .permissionDenied)

      let watcher = Watcher(other.subscribe(["$files": [:]]))
      let seen = try await watcher.next("the file with a url") { !$0.isFromCache && $0.rows("$files").count == 1 }
      let row = try #require(seen.rows("$files").first)
      #expect(row["id"] == .string(file.id))
      #expect(row["path"] == .string(file.path))
      #expect(row["size"] == 2000)
      #expect(row["location-id"] == .string(file.locationID))
      let url = try #require(row["url"]?.stringValue.flatMap(URL.init(string:)))
      let (bytes, response) = try await URLSession.shared.data(from: url)
      #expect(bytes == png)
      #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "content-type") == "image/png")
      #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "content-disposition") == "attachment; filename=\"cat.png\"")

      // Replacing keeps the id; the other client gets the new url.
      let replaced = try await db.storage.uploadFile("\(user.id)/cat.png", Data("new".utf8))
      #expect(replaced.id == file.id)
      #expect(replaced.locationID != file.locationID)
      let updated = try await watcher.next("the new location") { $0.column("$files", "location-id") == [.string(replaced.locationID)] }
      let newURL = try #require(updated.rows("$files").first?["url"]?.stringValue.flatMap(URL.init(string:)))
      #expect(try await URLSession.shared.data(from: newURL).0 == Data("new".utf8))

      #expect(try await db.storage.delete("\(user.id)/cat.png") == file.id)
      try await watcher.next("no files") { $0.rows("$files").isEmpty }
      #expect(try await db.storage.delete("\(user.id)/cat.png") == nil)
    }
  }
}
