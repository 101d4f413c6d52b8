import Foundation
import HTTPTypes
import Hummingbird
import InstantCore
import InstantPermissions
import Logging
import OrderedCollections

/// The storage routes (docs/files.md), as the reference's `storage/routes.clj` and
/// `admin/routes.clj` answer InstantDB's clients: uploads, deletes, signed download URLs, and
/// instant-local's own route that serves a blob to whoever holds its signed URL.
extension HTTPRoutes {
  /// Request headers the storage routes read, allowed by CORS (a browser preflights them).
  static let storageHeaders: [HTTPField.Name] = ["path", "filename", "app_id", "content-disposition"].compactMap {
    HTTPField.Name($0)
  }

  func registerStorage(on router: Router<HTTPRequestContext>) {
    // The clients' routes: the user is the refresh token's (`Bearer <token>`); no token, or one
    // that is not a user's (`Bearer undefined`), is a guest, as on the reference.
    router.put("/storage/upload") { request, context in
      await upload(request, context) { () async throws(ServerError) in
        let appID = try Self.storageAppID(request.headers[HTTPField.Name("app-id")!] ?? request.headers[HTTPField.Name("app_id")!], in: "headers")
        let path = try Self.filePath(request.headers[HTTPField.Name("path")!] ?? request.headers[HTTPField.Name("filename")!], in: "headers")
        let app = try await load(appID)
        return (app, await Self.runtimeAsker(request, app), path)
      }
    }
    router.delete("/storage/files") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        let (app, path) = try await runtimeFile(request)
        let ids = try await app.deleteFiles(paths: [path], as: await Self.runtimeAsker(request, app))
        return ["data": ["id": ids[0].map(JSON.string) ?? .null]]
      }
    }
    router.get("/storage/signed-download-url") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        let (app, path) = try await runtimeFile(request)
        try await app.checkStorage(.view, path: path, as: await Self.runtimeAsker(request, app))
        guard let location = await app.fileLocation(path: path), LocalFiles.isLocationID(location) else { return ["data": .null] }
        return ["data": registry.files?.url(appID: app.appID, locationID: location).map(JSON.string) ?? .null]
      }
    }

    // The admin routes: the admin token (no rules), or a user or guest by the `as-*` headers.
    router.put("/admin/storage/upload") { request, context in
      await upload(request, context) { () async throws(ServerError) in
        let call = try await dataCall(request)
        return (call.app, call.actor, try Self.filePath(request.headers[HTTPField.Name("path")!], in: "headers", alternative: nil))
      }
    }
    router.delete("/admin/storage/files") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        let path = try Self.filePath(request.uri.queryParameters.get("filename"), in: "params", name: "filename", alternative: nil)
        let call = try await dataCall(request)
        let ids = try await call.app.deleteFiles(paths: [path], as: call.actor)
        return ["data": ["id": ids[0].map(JSON.string) ?? .null]]
      }
    }
    router.post("/admin/storage/files/delete") { request, _ in
      await handle(request) { body throws(ServerError) in
        guard let filenames = body["filenames"], filenames != .null else {
          throw ServerError(.paramMissing, message: "Missing parameter: [\"body\" \"filenames\"]", hint: ["in": ["body", "filenames"]])
        }
        guard let paths = filenames.arrayValue?.compactMap(\.stringValue), paths.count == filenames.arrayValue?.count else {
          throw ServerError(
            .paramMalformed, message: "Malformed parameter: [\"body\" \"filenames\"]",
            hint: ["in": ["body", "filenames"], "original-input": filenames])
        }
        let call = try await dataCall(request)
        let ids = try await call.app.deleteFiles(paths: paths, as: call.actor)
        return ["data": ["ids": .array(ids.compactMap { $0 }.map(JSON.string))]]
      }
    }

    // instant-local's own: the bytes behind a `$files` `url`.
    router.get("/storage/files/:appId/:locationId") { request, context in
      await serveFile(request, context)
    }
  }

  // MARK: Uploads

  /// An upload: who uploads where (read from the request by `who`), the `create` rule, then the
  /// body streamed to disk and the `$files` row written. Every refusal comes before anything is
  /// stored and leaves the previous file at that path as it was.
  func upload(
    _ request: Request, _ context: HTTPRequestContext,
    who: () async throws(ServerError) -> (app: AppDatabase, asker: Asker, path: String)
  ) async -> Response {
    guard let files = registry.files else {
      return Self.json(ServerError.serverFault("This server stores no files.").httpBody, status: .internalServerError)
    }
    var bodyRead = false
    do throws(ServerError) {
      let (app, asker, path) = try await who()
      try await app.checkStorage(.create, path: path, as: asker)
      if let declared = request.headers[.contentLength].flatMap(Int.init), declared > files.maxUploadBytes {
        throw Self.tooLarge(files.maxUploadBytes)
      }
      bodyRead = true
      let received: LocalFiles.PendingUpload
      do {
        received = try await files.receive(request.body, context: context)
      } catch is LocalFiles.UploadTooLarge {
        throw Self.tooLarge(files.maxUploadBytes)
      } catch {
        throw ServerError(.paramMalformed, message: "The upload could not be received: \(LocalStorage.sentence(error))")
      }
      let locationID = UUID().uuidString.lowercased()
      do {
        try files.place(received, appID: app.appID, locationID: locationID)
      } catch {
        throw .serverFault("The upload could not be stored: \(error)")
      }
      defer { files.finishPlacing(appID: app.appID, locationID: locationID) }
      let answer: JSON
      do {
        answer = try await app.commitUpload(
          path: path, locationID: locationID, size: received.size,
          contentType: Self.contentType(request.headers[.contentType]),
          contentDisposition: Self.nonBlank(request.headers[.contentDisposition]))
      } catch {
        try? FileManager.default.removeItem(at: files.blob(appID: app.appID, locationID: locationID))
        throw error
      }
      return Self.json(["data": answer])
    } catch {
      if !bodyRead { await files.drain(request.body) }
      if error.isFault { logger.error("\(error)") }
      return Self.json(error.httpBody, status: .init(code: error.status))
    }
  }

  static func tooLarge(_ limit: Int) -> ServerError {
    ServerError(
      .validationFailed,
      message: "The file is larger than this server's upload limit of \(limit) bytes (--max-upload-bytes).",
      hint: ["data-type": "file", "max-upload-bytes": .number(Double(limit))])
  }

  // MARK: Serving

  /// `GET /storage/files/<app-id>/<location-id>?expires=&signature=`: the blob, with its row's
  /// content type and disposition, cacheable for a day (the URL itself changes once a day).
  private func serveFile(_ request: Request, _ context: HTTPRequestContext) async -> Response {
    func refuse(_ status: HTTPResponse.Status, _ type: ServerErrorType, _ message: String) -> Response {
      Self.json(ServerError(type, message: message, status: status.code).httpBody, status: status)
    }
    guard let files = registry.files else { return refuse(.notFound, .recordNotFound, "Record not found: file") }
    let rawApp = context.parameters.get("appId") ?? ""
    let location = context.parameters.get("locationId") ?? ""
    guard let appID = AppRegistry.normalizeAppID(rawApp), appID == rawApp, LocalFiles.isLocationID(location) else {
      return refuse(.notFound, .recordNotFound, "Record not found: file")
    }
    let query = request.uri.queryParameters
    switch files.signer.check(
      appID: appID, locationID: location, expires: query.get("expires"), signature: query.get("signature"), now: files.clock.now)
    {
    case .badSignature?:
      return refuse(.forbidden, .permissionDenied, "This file URL's signature is not valid.")
    case .expired?:
      return refuse(.forbidden, .permissionDenied, "This file URL has expired; query the file again for a new url.")
    case nil:
      break
    }
    let blob = files.blob(appID: appID, locationID: location)
    guard FileManager.default.fileExists(atPath: blob.path) else {
      return refuse(.notFound, .recordNotFound, "Record not found: file")
    }
    var headers: HTTPFields = [.cacheControl: "public, max-age=86400, immutable"]
    let app = try? await registry.app(appID)
    let served = await app?.servingHeaders(locationID: location) ?? (contentType: "application/octet-stream", contentDisposition: "inline")
    headers[.contentType] = served.contentType
    headers[.contentDisposition] = served.contentDisposition
    do {
      return Response(status: .ok, headers: headers, body: try await files.fileIO.loadFile(path: blob.path, context: context))
    } catch {
      return refuse(.notFound, .recordNotFound, "Record not found: file")
    }
  }

  // MARK: Parameters

  /// The app and path of a client's delete or download-URL request (query parameters).
  func runtimeFile(_ request: Request) async throws(ServerError) -> (AppDatabase, String) {
    let query = request.uri.queryParameters
    let appID = try Self.storageAppID(query.get("app_id") ?? query.get("app-id"), in: "params")
    let path = try Self.filePath(query.get("filename") ?? query.get("path"), in: "params", name: "filename", alternative: "path")
    return (try await load(appID), path)
  }

  /// Whom a client's storage request acts as: the user of its refresh token, else a guest.
  static func runtimeAsker(_ request: Request, _ app: AppDatabase) async -> Asker {
    let peer = SessionPeer(ip: "", origin: request.headers[.origin] ?? "")
    guard let token = try? AppRegistry.bearerToken(request.headers[.authorization]) else { return .user(nil, peer: peer) }
    return .user(await app.user(refreshToken: token), peer: peer)
  }

  static func storageAppID(_ raw: String?, in place: String) throws(ServerError) -> String {
    guard let raw else {
      throw ServerError(
        .paramMissing, message: "Missing parameter: [\"\(place)\" \"app-id\"]",
        hint: ["in": [.string(place), "app-id"], "possible-ins": [[.string(place), "app_id"]]])
    }
    guard let appID = AppRegistry.normalizeAppID(raw.trimmingCharacters(in: .whitespaces)) else {
      throw ServerError(
        .paramMalformed, message: "Malformed parameter: [\"\(place)\" \"app-id\"]",
        hint: ["in": [.string(place), "app-id"], "original-input": .string(raw)])
    }
    return appID
  }

  /// A file's path, trimmed; missing or blank is refused.
  static func filePath(
    _ raw: String?, in place: String, name: String = "path", alternative: String? = "filename"
  ) throws(ServerError) -> String {
    let where_: JSON = [.string(place), .string(name)]
    guard let raw else {
      var hint: JSONObject = ["in": where_]
      if let alternative { hint["possible-ins"] = [[.string(place), .string(alternative)]] }
      throw ServerError(.paramMissing, message: "Missing parameter: [\"\(place)\" \"\(name)\"]", hint: .object(hint))
    }
    guard let path = nonBlank(raw) else {
      throw ServerError(
        .paramMalformed, message: "Malformed parameter: [\"\(place)\" \"\(name)\"]",
        hint: ["in": where_, "original-input": .string(raw)])
    }
    return path
  }

  static func nonBlank(_ raw: String?) -> String? {
    guard let trimmed = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
    return trimmed
  }

  /// The reference's `coerce-content-type`: blank, `null` and `undefined` mean none.
  static func contentType(_ raw: String?) -> String? {
    guard let value = nonBlank(raw), value != "null", value != "undefined" else { return nil }
    return value
  }
}
