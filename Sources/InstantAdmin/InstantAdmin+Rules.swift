public import InstantCore
import OrderedCollections

/// The app's permission rules, pulled and pushed as `instant-cli` does (`/dash/apps/{id}/…`
/// with the admin token).
extension InstantAdmin {
  /// The rules the app enforces (the JSON of `instant.perms.ts`), or `nil` when it has none.
  public func pullRules() async throws(InstantAdminError) -> JSON? {
    let perms = try await send("GET", "dash/apps/\(appID)/perms/pull")["perms"]
    return perms == .null ? nil : perms
  }

  /// Replaces the app's rules; the server checks them first and refuses rules that do not compile
  /// (``InstantAdminError/server`` lists every problem). Returns their version, which grows only
  /// when they change.
  @discardableResult
  public func pushRules(_ rules: JSON) async throws(InstantAdminError) -> Int {
    let answer = try await send("POST", "dash/apps/\(appID)/rules", body: ["code": rules])
    guard let version = answer["rules"]?["version"]?.intValue else {
      throw InstantAdminError(.badResponse, "the answer has no rules version")
    }
    return version
  }
}
