import Foundation
import HTTPTypes
import Hummingbird
import InstantCore
import InstantPermissions

/// The storage routes InstantDB deprecated in January 2025 and still answers, for clients and
/// admin SDKs of before then (the reference's "legacy routes"): upload URLs used once within
/// 5 minutes, the admin's download URL by path, and the admin's old file list.
extension HTTPRoutes {
  func registerLegacyStorage(on router: Router<HTTPRequestContext>) {
    // A client asks for an upload URL (the `create` rule is checked now), then PUTs the bytes to it.
    router.post("/storage/signed-upload-url") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await load(try Self.storageAppID(body["app_id"]?.stringValue ?? body["app-id"]?.stringValue, in: "body"))
        let path = try Self.filePath(body["path"]?.stringValue ?? body["filename"]?.stringValue, in: "body")
        try await app.checkStorage(.create, path: path, as: await Self.runtimeAsker(request, app))
        return ["data": .string(try uploadURL(app, path))]
      }
    }
    router.put("/storage/:uploadId/consume-upload-url") { request, context in
      await upload(request, context) { () async throws(ServerError) in
        let raw = context.parameters.get("uploadId") ?? ""
        guard let id = AppRegistry.normalizeAppID(raw) else {
          throw ServerError(
            .paramMalformed, message: "Malformed parameter: [\"params\" \"upload-id\"]",
            hint: ["in": ["params", "upload-id"], "original-input": .string(raw)])
        }
        guard let ticket = registry.files?.consumeUploadTicket(id) else {
          throw .validation("app-upload-url", input: .string(id), ["The upload URL is expired or invalid."])
        }
        // The rule was checked when the URL was given.
        return (try await load(ticket.appID), .admin, ticket.path)
      }
    }

    // The admin's: its token only (the reference's `req->app-id-authed!`); no rules.
    router.post("/admin/storage/signed-upload-url") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await adminApp(request)
        let path = try Self.filePath(body["filename"]?.stringValue, in: "body", name: "filename", alternative: nil)
        return ["data": .string(try uploadURL(app, path))]
      }
    }
    router.get("/admin/storage/signed-download-url") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        let app = try await adminApp(request)
        let path = try Self.filePath(request.uri.queryParameters.get("filename"), in: "params", name: "filename", alternative: nil)
        guard let location = await app.fileLocation(path: path), LocalFiles.isLocationID(location) else { return ["data": .null] }
        return ["data": registry.files?.url(appID: app.appID, locationID: location).map(JSON.string) ?? .null]
      }
    }
    router.get("/admin/storage/files") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        let call = try await dataCall(request)
        let rows = try await call.app.adminQuery(["$files": [:]], as: call.actor)["$files"]?.arrayValue ?? []
        return ["data": .array(rows.map { Self.legacyFileFormat(appID: call.app.appID, $0) })]
      }
    }
  }

  private func uploadURL(_ app: AppDatabase, _ path: String) throws(ServerError) -> String {
    guard let url = registry.files?.uploadURL(appID: app.appID, path: path) else {
      throw .serverFault("This server stores no files.")
    }
    return url
  }

  /// A `$files` row as the old list answered it: `key` is where InstantDB's S3 kept the blob
  /// (`<app-id>/<bin>/<location-id>`), `name` its path.
  static func legacyFileFormat(appID: String, _ row: JSON) -> JSON {
    let location = row["location-id"]?.stringValue ?? ""
    return [
      "key": .string("\(appID)/\(S3ObjectKey.bin(location))/\(location)"), "name": row["path"] ?? .null,
      "size": row["size"] ?? .null, "etag": .null, "last_modified": .null,
    ]
  }
}

/// Where InstantDB's S3 keeps a blob: `<app-id>/<bin>/<location-id>` (the deprecated file list
/// still shows it).
package enum S3ObjectKey {
  /// The reference's `location-id->bin`: `abs(Java's String.hashCode) mod 10`.
  package static func bin(_ locationID: String) -> Int {
    var hash: Int32 = 0
    for unit in locationID.utf16 { hash = hash &* 31 &+ Int32(unit) }
    let magnitude = hash == .min ? Int(hash) : Int(abs(hash))  // Java's Math.abs keeps MIN_VALUE
    return ((magnitude % 10) + 10) % 10  // Clojure's mod takes the divisor's sign
  }
}
