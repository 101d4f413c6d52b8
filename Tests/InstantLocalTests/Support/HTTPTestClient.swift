import Foundation
import InstantCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// JSON requests over HTTP to a server on loopback.
struct HTTPTestClient {
  let port: Int

  /// Sends `body` (if any) as JSON; returns the status and the parsed body.
  func http(_ method: String, _ path: String, body: JSON? = nil) async throws -> (Int, JSON) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.httpMethod = method
    if let body {
      request.httpBody = Data(body.serialized().utf8)
      request.setValue("application/json", forHTTPHeaderField: "content-type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    return (status, try JSON.parse(bytes: data))
  }

  /// `POST /runtime/auth/send_magic_code`.
  func sendMagicCode(appID: String, email: String) async throws -> (Int, JSON) {
    try await http("POST", "/runtime/auth/send_magic_code", body: ["app-id": .string(appID), "email": .string(email)])
  }
}
