import Hummingbird
import InstantCore

/// The admin API's read-only views of an app: who is in a room (`db.rooms.getPresence` of the
/// admin SDK) and the app's attrs as a schema. The admin token only, as on the reference.
extension HTTPRoutes {
  func registerAdminInfo(on router: Router<HTTPRequestContext>) {
    router.get("/admin/rooms/presence") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        let app = try await adminApp(request)
        // `room-type` is required, as on the reference, which does not use it either.
        _ = try Self.queryParameter(request, "room-type")
        return await app.roomPresence(try Self.queryParameter(request, "room-id"))
      }
    }
    router.get("/admin/schema") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        await (try await adminApp(request)).adminSchema()
      }
    }
  }

  /// A required, non-blank query parameter, refused as the reference refuses it.
  static func queryParameter(_ request: Request, _ name: String) throws(ServerError) -> String {
    try filePath(request.uri.queryParameters.get(name), in: "params", name: name, alternative: nil)
  }
}
