public import InstantCore
import OrderedCollections

/// Why an admin request failed.
public struct InstantAdminError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The server refused the request; ``server`` says how.
    case rejected
    /// The server could not be reached.
    case unreachable
    /// The server's answer is not what the admin API answers.
    case badResponse
    /// The request could not be made (an address that is not a URL).
    case badRequest
  }

  public var kind: Kind
  public var message: String
  /// The server's error (its `type`, `message`, status and `hint`) when it refused the request.
  public var server: ServerError?

  init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// A refusal: the server's `{type, message, hint}`. The hint keeps only what names the problem
  /// (`record-type`, `in`, `errors`, `reason`): servers echo request values into hints.
  init(serverAnswer answer: JSON, status: Int) {
    var frame: JSONObject = ["status": .number(Double(status))]
    frame["type"] = answer["type"]
    frame["message"] = answer["hint"]?["message"] ?? answer["message"]
    var hint: JSONObject = [:]
    for key in ["record-type", "in", "errors", "reason", "data-type"] { hint[key] = answer["hint"]?[key] }
    frame["hint"] = hint.isEmpty ? .null : .object(hint)
    let error = ServerError(frame: .object(frame))
    self.init(.rejected, error.message)
    server = error
  }

  /// Whether the app's rules refused the request.
  public var isPermissionDenied: Bool {
    server?.type == .permissionDenied || server?.type == .permissionEvaluationFailed
  }

  public var description: String {
    if let server { return "\(server.type?.rawValue ?? "error") (\(server.status)): \(message)" }
    return message
  }
}
