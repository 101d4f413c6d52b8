import CEL
package import InstantCore
import OrderedCollections

/// Who is asking and from where: the `auth` and `request` of every rule a request meets.
package struct RuleContext: Sendable {
  /// The signed-in user's `$users` entity; `nil` for a guest (whose `auth` is an empty map, so
  /// `auth.id` is `null`).
  package var user: JSONObject?
  /// `request.time`, in epoch milliseconds.
  package var time: Double
  /// `request.ip` and `request.origin` (`""` when unknown, as an unset field reads).
  package var ip: String
  package var origin: String

  package init(user: JSONObject?, time: Double, ip: String = "", origin: String = "") {
    self.user = user
    self.time = time
    self.ip = ip
    self.origin = origin
  }

  func auth(_ reader: any EntityReading) -> CELValue {
    // A guest's `auth` is empty: every field null, and `auth.ref(…)` an empty list.
    .object(EntityValue(id: user?["id"]?.stringValue, etype: "$users", fields: user ?? [:], reader: reader, refPrefix: "$user"))
  }

  func request(modifiedFields: [String]) -> CELValue {
    .map(
      CELMap([
        ("time", RuleFunctions.timestamp(millis: Int64(time))), ("modifiedFields", .list(modifiedFields.map { .string($0) })),
        ("ip", .string(ip)), ("origin", .string(origin)),
      ].map { (CELMap.Key.string($0.0), $0.1) }))
  }
}
