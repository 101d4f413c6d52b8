import Foundation
import InstantCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The storage routes over HTTP, as InstantDB's core client calls them (`StorageAPI.ts`): a
/// raw-body `PUT /storage/upload` and `DELETE /storage/files`, with the signed-in user's refresh
/// token (none for a guest: the server treats the request as a guest's, as `Bearer undefined`).
struct StorageAPI: Sendable {
  let apiURI: URL
  let appID: String
  let http: any HTTPTransport

  /// `PUT /storage/upload`: `{id, location-id, size}`.
  func upload(
    path: String, data: Data, contentType: String?, contentDisposition: String?, refreshToken: String?
  ) async throws(InstantClientError) -> JSON {
    var request = URLRequest(url: apiURI.appendingPathComponent("storage/upload"))
    request.httpMethod = "PUT"
    request.setValue(appID, forHTTPHeaderField: "app-id")
    request.setValue(appID, forHTTPHeaderField: "app_id")
    request.setValue(path, forHTTPHeaderField: "path")
    // Without a type the server stores `application/octet-stream`; sending it keeps URLSession
    // from labelling the body a form.
    request.setValue(contentType ?? "application/octet-stream", forHTTPHeaderField: "content-type")
    if let contentDisposition { request.setValue(contentDisposition, forHTTPHeaderField: "content-disposition") }
    if let refreshToken { request.setValue("Bearer \(refreshToken)", forHTTPHeaderField: "authorization") }
    request.httpBody = data
    return try await send(request, "storage/upload")
  }

  /// `DELETE /storage/files?app_id=&filename=`: `{id}`, the deleted file's id or null.
  func delete(path: String, refreshToken: String?) async throws(InstantClientError) -> JSON {
    var components = URLComponents(url: apiURI.appendingPathComponent("storage/files"), resolvingAgainstBaseURL: false)
    components?.percentEncodedQuery = "app_id=\(Self.encoded(appID))&filename=\(Self.encoded(path))"
    guard let url = components?.url else { throw InstantClientError(.fileRejected, "cannot make a URL for \(path)") }
    var request = URLRequest(url: url)
    request.httpMethod = "DELETE"
    request.setValue("application/json", forHTTPHeaderField: "content-type")
    if let refreshToken { request.setValue("Bearer \(refreshToken)", forHTTPHeaderField: "authorization") }
    return try await send(request, "storage/files")
  }

  /// `encodeURIComponent`: everything but letters, digits and `-_.!~*'()` escaped.
  static func encoded(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
    allowed.insert(charactersIn: "-_.!~*'()")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }

  /// Sends a request and returns its answer's `data` (refusals are
  /// ``InstantClientError/Kind/fileRejected``).
  private func send(_ request: URLRequest, _ path: String) async throws(InstantClientError) -> JSON {
    let answer = try await ServerCall(apiURI: apiURI, http: http, path: path, kind: .fileRejected).send(request)
    guard let result = answer["data"], case .object = result else {
      throw InstantClientError(.fileRejected, "the server's answer to \(path) has no data")
    }
    return result
  }
}
