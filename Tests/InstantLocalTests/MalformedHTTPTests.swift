import Foundation
import InstantCore
internal import OrderedCollections
@testable import InstantLocal
import InstantLocalTesting
import Testing

/// Requests that are not HTTP, and routes instant-local does not serve: each is answered at once,
/// in `{type, message, hint}`, and the connection ends (no client waits on a silent socket).
@Suite("Malformed requests and unserved routes", .timeLimit(.minutes(10)))
struct MalformedHTTPTests {
  @Test(
    "A request NIO cannot parse gets 400 and a closed connection, before the first request and whatever it asked for",
    arguments: [
      "GET /health HTTP/1.1\r\nHost: x\r\nBadHeaderNoColon\r\n\r\n",
      "GARBAGE\r\n\r\n",
      "GET /runtime/session HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX Y\r\n\r\n",
      "POST /admin/transact HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    ])
  func unparsable(_ request: String) async throws {
    try await withInstantLocal { server in
      let port = try await server.boundPort
      let (response, closed) = try await RawConnection.with(port: port) { session in
        _ = await session.send(request)
        let response = await session.readResponse()
        var rest = session
        let closed = await rest.readResponse() == nil && !rest.closedByDeadline
        return (response, closed)
      }
      let answer = try #require(response, "no answer to \(request.debugDescription)")
      #expect(answer.status == 400)
      #expect(answer.headers["connection"] == "close")
      let body = try JSON.parse(answer.body)
      #expect(body["type"] == "validation-failed")
      #expect(body["message"]?.stringValue?.contains("not valid HTTP/1.1") == true, "\(answer.body)")
      #expect(closed, "the server ended the connection")
      // The server still answers.
      #expect(try await server.signInGuest(appID: UUID().uuidString.lowercased()).0 == 200)
    }
  }

  @Test("A route instant-local does not serve is 404 with a message naming it, in the server's error shape")
  func unservedRoute() async throws {
    try await withInstantLocal { server in
      let port = try await server.boundPort
      for (method, path) in [("POST", "/admin/webhooks"), ("GET", "/nope"), ("DELETE", "/runtime/auth/sign_in_guest")] {
        let response = try #require(try await RawConnection.with(port: port) { session in
          _ = await session.send("\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
          return await session.readResponse()
        })
        #expect(response.status == 404, "\(method) \(path)")
        #expect(response.headers["content-type"] == "application/json")
        let body = try JSON.parse(response.body)
        #expect(body["type"] == "not-found")
        #expect(body["message"]?.stringValue?.contains("does not serve \(method) \(path)") == true, "\(response.body)")
      }
    }
  }
}
