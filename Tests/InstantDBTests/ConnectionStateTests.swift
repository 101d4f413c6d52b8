import Testing

@testable import InstantDB

/// ``ConnectionState`` alone: the statuses a socket's life reports, and the back-off between
/// attempts.
@Suite struct ConnectionStateTests {
  @Test("connecting → opened → authenticated → closed, one init-ok per socket, a new generation per socket")
  func lifecycle() {
    var state = ConnectionState()
    #expect(state.attempting() == nil, "a new client is connecting already")
    #expect(state.opened() == .opened)
    #expect(state.generation == 1)
    let first = state.initOK(sessionID: "s1")
    #expect(first.accepted && first.publish == .authenticated)
    #expect(state.sessionID == "s1")
    #expect(state.initOK(sessionID: "s2").accepted == false, "a second init-ok on one socket is refused")
    #expect(state.sessionID == "s1")
    let closed = state.closed()
    #expect(closed.publish == .closed && closed.delay == .zero)
    #expect(state.sessionID == nil)
    #expect(state.attempting() == .connecting)
    _ = state.opened()
    #expect(state.generation == 2)
  }

  @Test("Delays grow by a second per failed attempt up to 10 s and start again at init-ok or a requested reconnect")
  func backoff() {
    var state = ConnectionState()
    var delays: [Duration] = []
    for _ in 0..<13 { delays.append(state.closed().delay) }
    #expect(delays == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10].map { Duration.seconds($0) })
    _ = state.opened()
    _ = state.initOK(sessionID: "s")
    #expect(state.closed().delay == .zero)
    _ = state.closed()
    state.reconnectRequested()
    #expect(state.closed().delay == .zero)
  }

  @Test("A refused init is errored through the socket's close, with its error, until a socket is authenticated")
  func refusedInit() {
    var state = ConnectionState()
    _ = state.opened()
    let error = InstantClientError(.initRejected, "no such app")
    #expect(state.initRefused(error) == .errored)
    #expect(state.closed().publish == nil, "errored stays errored when the socket closes")
    #expect(state.status == .errored)
    #expect(state.lastError == error)
    _ = state.attempting()
    _ = state.opened()
    _ = state.initOK(sessionID: "s")
    #expect(state.lastError == nil)
  }

  @Test("Offline closes an open socket's status at once; back online resets the back-off and wakes the loop")
  func network() {
    var state = ConnectionState()
    _ = state.opened()
    #expect(state.network(true, hasSocket: true) == nil, "no change")
    let offline = state.network(false, hasSocket: true)
    #expect(offline?.publish == .closed && offline?.wake == false)
    for _ in 0..<3 { _ = state.closed() }
    let online = state.network(true, hasSocket: false)
    #expect(online?.publish == nil && online?.wake == true)
    #expect(state.closed().delay == .zero)
  }

  @Test("A refusal rides along until a socket is authenticated; the phase carries only what its status has")
  func phaseCarriesItsData() {
    var state = ConnectionState()
    let error = InstantClientError(.initRejected, "no such app")
    _ = state.opened()
    _ = state.initRefused(error)
    _ = state.closed()
    #expect(state.phase == .errored(error))
    _ = state.attempting()
    #expect(state.phase == .connecting(refusal: error))
    _ = state.opened()
    #expect(state.phase == .opened(refusal: error))
    _ = state.initOK(sessionID: "s")
    #expect(state.phase == .authenticated(sessionID: "s"))
    _ = state.closed()
    #expect(state.phase == .closed(refusal: nil))
  }

  @Test("After shut-down nothing moves: a socket's close, an attempt, an open or an init-ok publish nothing")
  func shutDownIsFinal() {
    var state = ConnectionState()
    _ = state.opened()
    _ = state.initOK(sessionID: "s")
    #expect(state.shutDown() == .closed)
    #expect(state.isShutDown)
    #expect(state.closed().publish == nil)
    #expect(state.attempting() == nil)
    #expect(state.opened() == nil)
    #expect(state.generation == 1, "no socket counts after shut-down")
    #expect(state.initOK(sessionID: "t").accepted == false)
    #expect(state.initRefused(InstantClientError(.initRejected, "late")) == nil)
    #expect(state.phase == .shutDown(refusal: nil) && state.status == .closed && state.sessionID == nil)
  }
}
