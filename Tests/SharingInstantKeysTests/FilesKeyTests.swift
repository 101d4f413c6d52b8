import Foundation
import InstantCore
import InstantDB
import SharingInstant
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `$files` through the keys (docs/files.md): a file uploaded on one device appears in another
/// device's `.instantQuery`/`.instantSync` of `$files` with a `url` that serves its bytes, a
/// replacement keeps the entity and changes the `url`, a link from an app entity carries the
/// file, and a `withLock` rename or removal is a write the rules allow.
@Suite("$files in keys", .timeLimit(.minutes(10)))
struct FilesKeyTests {
  static let rules: JSON = [
    "$files": ["allow": ["view": "true", "create": "true", "update": "true", "delete": "true"]]
  ]

  @Test("An upload on A shows in B's $files key with a url serving its bytes; a replacement keeps the id and changes the url")
  func uploadShowsInKey() async throws {
    try await KeysServer.withTwoClients(rules: Self.rules) { a, b in
      let files = SharedReader(.instantQuery(Schema.files, client: b))
      try await eventually("loaded") { !files.isLoading }
      #expect(files.wrappedValue.isEmpty)

      let uploaded = try await a.storage.uploadFile("cats/one.txt", Data("meow".utf8), contentType: "text/plain")
      try await eventually("b's key shows the file") { files.wrappedValue[id: uploaded.id]?.url != nil }
      let file = try #require(files.wrappedValue[id: uploaded.id])
      #expect(file.path == "cats/one.txt")
      #expect(file.size == 4)
      #expect(file.contentType == "text/plain")
      #expect(try await download(file.url) == Data("meow".utf8))

      let replaced = try await a.storage.uploadFile("cats/one.txt", Data("purr!".utf8), contentType: "text/plain")
      #expect(replaced.id == uploaded.id)
      try await eventually("b's key shows the new size") { files.wrappedValue[id: uploaded.id]?.size == 5 }
      let again = try #require(files.wrappedValue[id: uploaded.id])
      #expect(files.wrappedValue.count == 1)
      #expect(again.url != file.url)
      #expect(try await download(again.url) == Data("purr!".utf8))
    }
  }

  @Test("A photo's has-one link to a file carries the file and its url to the other device")
  func linkedFile() async throws {
    try await KeysServer.withTwoClients(rules: Self.rules) { a, b in
      let photos = Shared(.instantSync(Schema.photos.with(\.image), client: a))
      let theirs = SharedReader(.instantQuery(Schema.photos.with(\.image), client: b))
      try await eventually("loaded") { !photos.isLoading && !theirs.isLoading }

      let uploaded = try await a.storage.uploadFile("photos/sunset.png", Data([0x89, 0x50, 0x4e, 0x47]), contentType: "image/png")
      let photo = Photo(caption: "Sunset")
      try await photos.create(photo)
      try await photos.link(id: photo.id, \.image, to: uploaded.id, client: a)
      try await eventually("b sees the photo's image") { theirs.wrappedValue[id: photo.id]?.image?.url != nil }
      let image = try #require(theirs.wrappedValue[id: photo.id]?.image)
      #expect(image.id == uploaded.id)
      #expect(image.path == "photos/sunset.png")
      #expect(try await download(image.url) == Data([0x89, 0x50, 0x4e, 0x47]))
    }
  }

  @Test("withLock on a $files key: a rename and a removal reach the server; the other device's key follows")
  func editsThroughWithLock() async throws {
    try await KeysServer.withTwoClients(rules: Self.rules) { a, b in
      let mine = Shared(.instantSync(Schema.files, client: a))
      let theirs = SharedReader(.instantQuery(Schema.files, client: b))
      try await eventually("loaded") { !mine.isLoading && !theirs.isLoading }
      let first = try await b.storage.uploadFile("docs/a.txt", Data("a".utf8))
      let second = try await b.storage.uploadFile("docs/b.txt", Data("bb".utf8))
      try await eventually("a's key shows both") { mine.wrappedValue.count == 2 && mine.wrappedValue.allSatisfy { $0.url != nil } }

      mine.withLock { $0[id: first.id]?.path = "docs/renamed.txt" }
      try await eventually("b sees the rename") { theirs.wrappedValue[id: first.id]?.path == "docs/renamed.txt" }
      try await allSynced(a)
      #expect(try await download(theirs.wrappedValue[id: first.id]?.url) == Data("a".utf8))

      mine.withLock { _ = $0.remove(id: second.id) }
      try await eventually("b's key loses the file") { theirs.wrappedValue[id: second.id] == nil }
      try await allSynced(a)
      let rows = try await serverRows(b, "$files")
      #expect(rows.compactMap { $0["path"]?.stringValue } == ["docs/renamed.txt"])
      #expect(mine.wrappedValue.map(\.path) == ["docs/renamed.txt"])
    }
  }

  @Test("Without $files rules the key is empty and an upload is refused (files are closed, as on InstantDB)")
  func closedWithoutRules() async throws {
    try await KeysServer.withTwoClients { a, b in
      let files = SharedReader(.instantQuery(Schema.files, client: b))
      try await eventually("loaded") { !files.isLoading }
      let refused = await #expect(throws: InstantClientError.self) {
        try await a.storage.uploadFile("x.txt", Data("x".utf8))
      }
      #expect(refused?.isPermissionDenied == true)
      #expect(files.wrappedValue.isEmpty)
      #expect(files.loadError == nil)
    }
  }

  private func download(_ url: String?) async throws -> Data {
    let url = try #require(url.flatMap(URL.init(string:)))
    let (data, response) = try await URLSession.shared.data(from: url)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    return data
  }
}
