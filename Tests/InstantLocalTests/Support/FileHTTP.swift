import Foundation
import InstantCore
import InstantLocal
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The storage routes over real HTTP, as InstantDB's clients call them.
struct FileHTTP {
  let base: URL
  var appID = TestSession.appID

  init(_ server: InstantLocalServer) async throws {
    base = try #require(await server.baseURL)
  }

  struct Answer {
    var status: Int
    var headers: [String: String]
    var data: Data
    var json: JSON { (try? JSON.parse(bytes: data)) ?? .null }
  }

  /// Any request; `stream` sends the body as a stream (chunked, no declared length).
  static func send(
    _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil, stream: Bool = false
  ) async throws -> Answer {
    var request = URLRequest(url: url)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body {
      if stream { request.httpBodyStream = InputStream(data: body) } else { request.httpBody = body }
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = response as? HTTPURLResponse
    var fields: [String: String] = [:]
    for (name, value) in http?.allHeaderFields ?? [:] {
      if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
    }
    return Answer(status: http?.statusCode ?? 0, headers: fields, data: data)
  }

  /// `PUT /storage/upload` as the core client sends it; `token` is the refresh token (`nil`:
  /// `Bearer undefined`, what the JS client sends signed out).
  func upload(
    _ path: String, _ body: Data, token: String?, contentType: String? = nil, contentDisposition: String? = nil,
    stream: Bool = false
  ) async throws -> Answer {
    var headers = ["app-id": appID, "app_id": appID, "path": path, "authorization": "Bearer \(token ?? "undefined")"]
    headers["content-type"] = contentType ?? ""
    if let contentDisposition { headers["content-disposition"] = contentDisposition }
    return try await Self.send("PUT", base.appendingPathComponent("storage/upload"), headers: headers, body: body, stream: stream)
  }

  /// `DELETE /storage/files?app_id=&filename=`.
  func delete(_ path: String, token: String?) async throws -> Answer {
    try await Self.send(
      "DELETE", try url("storage/files", ["app_id": appID, "filename": path]),
      headers: ["authorization": "Bearer \(token ?? "undefined")", "content-type": "application/json"])
  }

  /// `GET /storage/signed-download-url?app_id=&filename=`.
  func downloadURL(_ path: String, token: String?) async throws -> Answer {
    try await Self.send(
      "GET", try url("storage/signed-download-url", ["app_id": appID, "filename": path]),
      headers: ["authorization": "Bearer \(token ?? "undefined")"])
  }

  /// GET a file URL.
  static func get(_ url: String) async throws -> Answer {
    try await send("GET", try #require(URL(string: url)))
  }

  func url(_ path: String, _ query: [String: String]) throws -> URL {
    var components = try #require(URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false))
    components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
    return try #require(components.url)
  }
}

/// `$files` attr ids (the system catalog's).
enum FilesAttr {
  static let id = "96653230-13ff-ffff-2a34-81ffffffffff"
  static let path = "96653230-13ff-ffff-2a34-f04cffffffff"
  static let size = "96653230-13ff-ffff-2a35-24609fffffff"
  static let contentType = "96653230-13ff-ffff-2a34-29e5e4ffffff"
  static let locationID = "96653230-13ff-ffff-2a34-b40fffffffff"
  static let url = "96653230-13ff-ffff-2a35-48afffffffff"
}

/// A query result's `$files`, by entity: label → value, read from its triples.
func files(in result: JSON?) -> [String: [String: JSON]] {
  let labels = [
    FilesAttr.path: "path", FilesAttr.size: "size", FilesAttr.contentType: "content-type",
    FilesAttr.locationID: "location-id", FilesAttr.url: "url", FilesAttr.id: "id",
  ]
  var out: [String: [String: JSON]] = [:]
  for triple in triples(result) {
    guard let e = triple[0]?.stringValue, let a = triple[1]?.stringValue, let label = labels[a] else { continue }
    out[e, default: [:]][label] = triple[2]
  }
  return out
}

/// Random bytes.
func randomBytes(_ count: Int) -> Data {
  var generator = SystemRandomNumberGenerator()
  var words = (0..<(count + 7) / 8).map { _ in generator.next() }
  return words.withUnsafeMutableBytes { Data($0.prefix(count)) }
}

/// The exact refusal of a storage request the rules do not allow.
func storageDenied(_ action: String) -> JSON {
  [
    "type": "permission-denied", "message": "Permission denied: not has-storage-permission?",
    "hint": ["input": ["$files", .string(action)], "expected": "has-storage-permission?"],
  ]
}
