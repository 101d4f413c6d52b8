import Foundation
import InstantCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request to the server's HTTP routes (auth, storage), and the failures they share: a
/// request that does not get through is ``InstantClientError/Kind/offline`` (or
/// ``InstantClientError/Kind/cancelled`` when the calling task was cancelled), with the
/// networking error kept in ``InstantClientError/underlying``; an answer that is not JSON, or a
/// refusal, is an error of the caller's `kind`.
struct ServerCall: Sendable {
  let apiURI: URL
  /// How the request is sent.
  let http: any HTTPTransport
  /// Where the call goes, for messages (`runtime/auth/…`, `storage/…`).
  let path: String
  /// The kind of the errors the server's answers make.
  let kind: InstantClientError.Kind

  /// Sends `request` and returns the JSON answer of a `200`; throws the server's refusal
  /// otherwise, its hint kept whole or, with `recordTypeOnly` (the answer can echo a code or a
  /// token), only its record type.
  func send(_ request: URLRequest, recordTypeOnly: Bool = false) async throws(InstantClientError) -> JSON {
    let data: Data
    let status: Int
    do {
      (status, data) = try await http.send(request)
    } catch {
      if error is CancellationError || (error as? URLError)?.code == .cancelled {
        throw InstantClientError(.cancelled, "the request to \(apiURI.absoluteString)/\(path) was cancelled", underlying: error)
      }
      throw InstantClientError(
        .offline, "could not reach \(apiURI.absoluteString)/\(path): \(error.localizedDescription)", underlying: error)
    }
    let answer: JSON
    do {
      answer = try JSON.parse(bytes: data)
    } catch {
      // Not JSON: a proxy's page, a cut-off body. Its text is not repeated (it could echo a token).
      throw InstantClientError(kind, "the server's answer to \(path) (status \(status)) is not JSON", underlying: error)
    }
    guard status == 200 else {
      let hint = recordTypeOnly ? answer["hint"]?["record-type"].map { ["record-type": $0] } : answer["hint"]
      throw InstantClientError(
        kind, answer["message"]?.stringValue ?? "the server answered \(status)",
        serverType: answer["type"]?.stringValue.map(ServerErrorType.init(rawValue:)), hint: hint)
    }
    return answer
  }
}
