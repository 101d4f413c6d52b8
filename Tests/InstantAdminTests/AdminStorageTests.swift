import Foundation
import InstantAdmin
import InstantCore
import InstantLocal
import Testing
internal import OrderedCollections

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `InstantAdmin`'s storage calls against a running instant-local (docs/files.md): the admin's
/// uploads and deletes bypass the `$files` rules; `asGuest` and `asUser` meet them.
@Suite("admin storage")
struct AdminStorageTests {
  @Test("The admin uploads and deletes without rules; a guest is refused")
  func adminBypassesRules() async throws {
    try await AdminWorld.run { world in
      let admin = world.admin
      // No rules: $files is closed to everyone but the admin.
      let file = try await admin.uploadFile(path: "reports/q1.pdf", data: Data("pdf".utf8), contentType: "application/pdf")
      #expect(file.path == "reports/q1.pdf")
      #expect(file.size == 3)
      let guest = await #expect(throws: InstantAdminError.self) {
        try await admin.asGuest().uploadFile(path: "reports/q2.pdf", data: Data("x".utf8))
      }
      #expect(guest?.isPermissionDenied == true)
      #expect(guest?.server?.message == "Permission denied: not has-storage-permission?")
      let guestWithoutToken = InstantAdmin(appID: world.app.id, adminToken: nil, apiURI: world.baseURL).asGuest()
      #expect(await (try? guestWithoutToken.uploadFile(path: "x", data: Data())) == nil)

      // The admin's query sees the row; replacing keeps the id.
      let replaced = try await admin.uploadFile(path: "reports/q1.pdf", data: Data("pdf v2".utf8))
      #expect(replaced.id == file.id)
      #expect(replaced.locationID != file.locationID)
      let rows = try await admin.query(["$files": [:]])["$files"]?.arrayValue ?? []
      #expect(rows.map { $0["path"] } == ["reports/q1.pdf"])
      #expect(rows.first?["size"] == 6)
      #expect(rows.first?["content-type"] == "application/octet-stream")
      // Its url (made at query time, as for the app's queries) serves the new bytes.
      let url = try #require(rows.first?["url"]?.stringValue.flatMap(URL.init(string:)))
      let (bytes, _) = try await URLSession.shared.data(from: url)
      #expect(bytes == Data("pdf v2".utf8))

      // Under rules, a guest may upload where they allow it.
      try await admin.pushRules(["$files": ["allow": ["create": "data.path.startsWith('public/')", "delete": "false"]]])
      let shared = try await admin.asGuest().uploadFile(path: "public/readme.txt", data: Data("hi".utf8))
      #expect(await (try? admin.asGuest().uploadFile(path: "reports/q3.pdf", data: Data())) == nil)
      let denied = await #expect(throws: InstantAdminError.self) { try await admin.asGuest().deleteFile(path: "public/readme.txt") }
      #expect(denied?.isPermissionDenied == true)

      // Deletes: one, then several (ids of those that existed).
      #expect(try await admin.deleteFile(path: "public/readme.txt") == shared.id)
      #expect(try await admin.deleteFile(path: "public/readme.txt") == nil)
      let a = try await admin.uploadFile(path: "bulk/a b+c.txt", data: Data("a".utf8))
      let b = try await admin.uploadFile(path: "bulk/b.txt", data: Data("b".utf8))
      #expect(Set(try await admin.deleteFiles(paths: ["bulk/a b+c.txt", "bulk/b.txt", "bulk/none.txt"])) == [a.id, b.id])
      #expect(try await admin.query(["$files": [:]])["$files"]?.arrayValue?.count == 1)
    }
  }

  @Test("Not even the admin may write $files system columns in a transaction")
  func systemColumns() async throws {
    try await AdminWorld.run { world in
      let file = try await world.admin.uploadFile(path: "a.txt", data: Data("a".utf8))
      let refused = await #expect(throws: InstantAdminError.self) {
        try await world.admin.transact([.update("$files", .id(file.id), ["size": 100])])
      }
      #expect(refused?.server?.type == .validationFailed)
      #expect(refused?.message.contains("$files.size is a system column. You aren't allowed to change this directly.") == true)
      try await world.admin.transact([.delete("$files", .id(file.id))])
      #expect(try await world.admin.query(["$files": [:]])["$files"] == [])
    }
  }
}
