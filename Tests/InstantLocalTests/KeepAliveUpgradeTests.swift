import InstantLocal
import InstantLocalTesting
import Testing

/// InstantDB's JS client under Node signs in over HTTP, then opens its WebSocket through the same
/// keep-alive connection pool. An upgrade on a connection that already served HTTP used to get
/// `307 Temporary Redirect` + `Connection: close`, and the client never connected.
@Suite("WebSocket upgrade after HTTP on one connection")
struct KeepAliveUpgradeTests {
  @Test func anHTTPResponseEndsItsConnectionSoNoUpgradeIsRedirected() async throws {
    try await withInstantLocal { server in
      let port = try await server.boundPort
      let signIn = RawConnection.post("/runtime/auth/sign_in_guest", json: #"{"app-id":"\#(TestSession.appID)"}"#, port: port)
      let upgrade = RawConnection.webSocketUpgrade(appID: TestSession.appID, port: port)
      let (first, second) = try await RawConnection.with(port: port) { connection in
        _ = await connection.send(signIn)
        let first = await connection.readResponse()
        _ = await connection.send(upgrade)
        let second = await connection.readResponse()
        #expect(!connection.closedByDeadline, "the server closed the connection; the test did not")
        return (first, second)
      }
      #expect(first?.status == 200)
      #expect(first?.body.contains("refresh_token") == true)
      #expect(first?.headers["connection"] == "close", "the client is told not to reuse the connection")
      #expect(second == nil, "the server closed it, so the upgrade never reached a used connection (got \(second?.statusLine ?? "nothing"))")

      let fresh = try await RawConnection.with(port: port) { connection in
        _ = await connection.send(upgrade)
        return await connection.readResponse()
      }
      #expect(fresh?.status == 101)
      #expect(fresh?.headers["upgrade"]?.lowercased() == "websocket")
    }
  }

  @Test func preflightAndErrorsEndTheirConnectionsToo() async throws {
    try await withInstantLocal { server in
      let port = try await server.boundPort
      let requests = [
        "OPTIONS /runtime/auth/sign_in_guest HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost\r\nAccess-Control-Request-Method: POST\r\n\r\n",
        RawConnection.post("/runtime/auth/sign_in_guest", json: "{", port: port),
        "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n",
      ]
      for request in requests {
        let response = try await RawConnection.with(port: port) { connection in
          _ = await connection.send(request)
          let response = await connection.readResponse()
          let next = await connection.readResponse()
          #expect(next == nil, "closed after \(response?.statusLine ?? "no response")")
          #expect(!connection.closedByDeadline, "the server closed it after \(response?.statusLine ?? "no response")")
          return response
        }
        #expect(response?.headers["connection"] == "close", "\(response?.statusLine ?? "no response")")
      }
    }
  }
}
