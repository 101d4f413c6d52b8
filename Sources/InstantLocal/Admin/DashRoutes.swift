import Foundation
import HTTPTypes
import Hummingbird
import InstantCore

/// The `/dash` routes `instant-cli` uses with an app's admin token (docs/admin.md): schema pull
/// and push, and pulling and pushing permission rules.
extension HTTPRoutes {
  func registerDash(on router: Router<HTTPRequestContext>) {
    router.get("/dash/apps/:appId/schema/pull") { request, context in
      await handle(nil) { _ throws(ServerError) in
        let appID = try Self.pathAppID(context)
        // The schema is every session's to read (`init-ok` sends the attrs), so an app without an
        // admin token (made on first use, in development) shows it without one.
        if try await registry.hasAdminToken(appID) {
          try await registry.authorizeDash(appID: appID, authorization: request.headers[.authorization])
        }
        return await (try load(appID)).schemaPull()
      }
    }
    router.get("/dash/apps/:appId/perms/pull") { request, context in
      await handle(nil) { _ throws(ServerError) in
        let appID = try Self.pathAppID(context)
        try await registry.authorizeDash(appID: appID, authorization: request.headers[.authorization])
        return ["perms": try await registry.rulesCode(of: appID) ?? .null]
      }
    }
    router.post("/dash/apps/:appId/rules") { request, context in
      await handle(request) { body throws(ServerError) in
        let appID = try Self.pathAppID(context)
        try await registry.authorizeDash(appID: appID, authorization: request.headers[.authorization])
        guard let code = body["code"], code != .null else { throw .paramMissing("code") }
        let (_, version) = try await registry.setRules(code, of: appID)
        return ["rules": ["app_id": .string(appID), "code": code, "version": .number(Double(version))]]
      }
    }
  }

  /// The schema push of `instant-cli push schema`, and its indexing jobs.
  func registerSchemaPush(on router: Router<HTTPRequestContext>) {
    router.post("/dash/apps/:appId/schema/steps/apply") { request, context in
      await handle(request) { body throws(ServerError) in
        let appID = try Self.pathAppID(context)
        try await registry.authorizeDash(appID: appID, authorization: request.headers[.authorization])
        guard let steps = body["steps"], steps != .null else { throw .paramMissing("steps") }
        return try await (try load(appID)).applySchemaSteps(steps)
      }
    }
    router.get("/dash/apps/:appId/indexing-jobs/group/:groupId") { request, context in
      await handle(nil) { _ throws(ServerError) in
        let appID = try Self.pathAppID(context)
        try await registry.authorizeDash(appID: appID, authorization: request.headers[.authorization])
        return await (try load(appID)).indexingJobs(group: context.parameters.get("groupId") ?? "")
      }
    }
    router.get("/dash/apps/:appId/indexing-jobs/:jobId") { request, context in
      await handle(nil) { _ throws(ServerError) in
        let appID = try Self.pathAppID(context)
        try await registry.authorizeDash(appID: appID, authorization: request.headers[.authorization])
        return try await (try load(appID)).indexingJob(context.parameters.get("jobId") ?? "")
      }
    }
  }

  static func pathAppID(_ context: HTTPRequestContext) throws(ServerError) -> String {
    let raw = context.parameters.get("appId") ?? ""
    guard let appID = AppRegistry.normalizeAppID(raw) else { throw .paramMalformed("app-id", input: .string(raw)) }
    return appID
  }
}
