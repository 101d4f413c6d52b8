public import Foundation
import InstantCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The app's files (`$files`), as `@instantdb/admin`'s `db.storage` (docs/files.md): as the admin
/// the `$files` rules do not apply; ``asUser(email:)``, ``asUser(refreshToken:)`` and
/// ``asGuest()`` upload and delete under them.
extension InstantAdmin {
  /// A file the server stored.
  public struct UploadedFile: Sendable, Hashable {
    /// The `$files` entity's id: the same after an upload replaces the file.
    public var id: String
    public var path: String
    /// In bytes.
    public var size: Int
    /// Where its bytes are kept: a new one for every upload.
    public var locationID: String
  }

  /// Uploads `data` as the file at `path` (replacing the file there, if any): `PUT
  /// /admin/storage/upload`.
  ///
  /// - Parameters:
  ///   - path: where the file goes, e.g. `"reports/q1.pdf"`; rules read it as `data.path`.
  ///   - data: the file's bytes.
  ///   - contentType: served with the file; `application/octet-stream` when not given.
  ///   - contentDisposition: served with the file; `inline` when not given.
  public func uploadFile(
    path: String, data: Data, contentType: String? = nil, contentDisposition: String? = nil
  ) async throws(InstantAdminError) -> UploadedFile {
    var headers = ["path": path, "content-type": contentType ?? "application/octet-stream"]
    if let contentDisposition { headers["content-disposition"] = contentDisposition }
    let answer = try await send("PUT", "admin/storage/upload", headers: headers, rawBody: data)["data"]
    guard let id = answer?["id"]?.stringValue, let location = answer?["location-id"]?.stringValue,
      let size = answer?["size"]?.intValue
    else { throw InstantAdminError(.badResponse, "the upload's answer has no id, location-id and size") }
    return UploadedFile(id: id, path: path.trimmingCharacters(in: .whitespacesAndNewlines), size: size, locationID: location)
  }

  /// Deletes the file at `path` (`DELETE /admin/storage/files`); returns its id, or `nil` when
  /// there was none.
  @discardableResult
  public func deleteFile(path: String) async throws(InstantAdminError) -> String? {
    let answer = try await send("DELETE", "admin/storage/files", query: [URLQueryItem(name: "filename", value: path)])
    return answer["data"]?["id"]?.stringValue
  }

  /// Deletes the files at `paths` in one transaction (`POST /admin/storage/files/delete`); returns
  /// the ids of those that existed.
  @discardableResult
  public func deleteFiles(paths: [String]) async throws(InstantAdminError) -> [String] {
    let answer = try await send("POST", "admin/storage/files/delete", body: ["filenames": .array(paths.map(JSON.string))])
    return answer["data"]?["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
  }
}
