public import Foundation
import InstantCore

extension InstantClient {
  /// The app's files (`$files`): upload and delete them by path, as the signed-in user (or a
  /// guest), under the app's `$files` rules.
  ///
  /// ```swift
  /// let file = try await db.storage.uploadFile("photos/\(userID)/cat.png", png, contentType: "image/png")
  /// for await result in db.subscribe(["$files": [:]]) { … }   // path, size, url, …
  /// try await db.storage.delete("photos/\(userID)/cat.png")
  /// ```
  ///
  /// (``InstantStorage``, the `storage:` of ``init(appId:apiURI:websocketURI:storage:schema:transport:http:cachedQueryLimit:clock:logger:)``,
  /// is something else: where this device keeps pending writes and cached results.)
  public var storage: FileStorage { FileStorage(client: self) }
}

/// Uploads and deletes of the app's files (``InstantClient/storage``).
///
/// A file is a `$files` entity: query it like any other namespace (`["$files": [:]]`) to get its
/// `path`, `size`, `content-type` and a `url` to download it from; link it to your own entities
/// with its `id`. Uploading to a path that has a file replaces it and keeps its id (and links).
/// `$files` rules decide who may upload (`create`), delete (`delete`) and see (`view`) files;
/// without rules nobody but the admin may.
public struct FileStorage: Sendable {
  let client: InstantClient

  /// Uploads `data` as the file at `path` (replacing the file there, if any) and returns it.
  ///
  /// - Parameters:
  ///   - path: where the file goes, e.g. `"photos/\(userID)/cat.png"`; rules read it as `data.path`.
  ///   - data: the file's bytes.
  ///   - contentType: served with the file; `application/octet-stream` when not given.
  ///   - contentDisposition: served with the file (`attachment; filename="cat.png"` to make
  ///     browsers download it); `inline` when not given.
  /// - Throws: ``InstantClientError/Kind/fileRejected`` when the server refuses it (the rules,
  ///   its size limit), ``InstantClientError/Kind/offline`` when it cannot be reached.
  public func uploadFile(
    _ path: String, _ data: Data, contentType: String? = nil, contentDisposition: String? = nil
  ) async throws(InstantClientError) -> UploadedFile {
    let answer = try await api.upload(
      path: path, data: data, contentType: contentType, contentDisposition: contentDisposition,
      refreshToken: await refreshToken())
    guard let id = answer["id"]?.stringValue, let location = answer["location-id"]?.stringValue,
      let size = answer["size"]?.intValue
    else { throw InstantClientError(.fileRejected, "the upload's answer has no id, location-id and size") }
    return UploadedFile(id: id, path: path.trimmingCharacters(in: .whitespacesAndNewlines), size: size, locationID: location)
  }

  /// Deletes the file at `path`; returns its id, or `nil` when there was none. (InstantDB also
  /// deletes files with a transaction: `.delete("$files", .id(fileID))`.)
  @discardableResult
  public func delete(_ path: String) async throws(InstantClientError) -> String? {
    try await api.delete(path: path, refreshToken: await refreshToken())["id"]?.stringValue
  }

  private var api: StorageAPI { StorageAPI(apiURI: client.apiURI, appID: client.appId, http: client.http) }

  private func refreshToken() async -> String? {
    await client.reactor.loadUser(from: client.userFile)
    return await client.reactor.refreshToken
  }
}

/// A file the server stored.
public struct UploadedFile: Sendable, Hashable {
  /// The `$files` entity's id: the same after an upload replaces the file.
  public var id: String
  public var path: String
  /// In bytes.
  public var size: Int
  /// Where its bytes are kept: a new one for every upload.
  public var locationID: String

  public init(id: String, path: String, size: Int, locationID: String) {
    self.id = id
    self.path = path
    self.size = size
    self.locationID = locationID
  }
}
