import InstantCore
import Testing

/// The wire vocabulary: every message either side sends reads back as itself, and a frame the
/// server refuses gets the reference's error.
@Suite struct WireMessageTests {
  static let clientMessages: [ClientMessage] = [
    ClientMessage(clientEventID: "e1", .initialize(appID: "a", refreshToken: "t", versions: ["@instantdb/core": "v1"])),
    ClientMessage(clientEventID: "e2", .initialize(appID: "a", refreshToken: nil, versions: .null)),
    ClientMessage(clientEventID: "e3", .addQuery(q: ["todos": [:]])),
    ClientMessage(clientEventID: "e4", .removeQuery(q: ["todos": ["$": ["limit": 2]]])),
    ClientMessage(clientEventID: "e5", .transact(txSteps: [["add-triple", "e", "a", "é\u{1F600}"]], created: 1.5, order: 7)),
    ClientMessage(clientEventID: "e6", .joinRoom(roomID: "r", roomType: "chat", data: ["name": "ann"])),
    ClientMessage(clientEventID: "e7", .leaveRoom(roomID: "r")),
    ClientMessage(clientEventID: "e8", .setPresence(roomID: "r", data: ["typing": true])),
    ClientMessage(clientEventID: "e9", .clientBroadcast(roomID: "r", roomType: "chat", topic: "emoji", data: ["e": "🎉"])),
  ]

  @Test("Every client message reads back as itself, through its text")
  func clientRoundTrip() throws {
    #expect(Set(Self.clientMessages.map(\.op)) == Set(ClientOp.allCases))
    for message in Self.clientMessages {
      let text = message.frame.serialized()
      let read = try ClientMessage(frame: try JSON.parse(text))
      #expect(read == message, "\(text)")
      #expect(try ClientMessage.op(of: try JSON.parse(text)) == message.op)
    }
  }

  static let serverMessages: [ServerMessage] = [
    .initOK(
      sessionID: "s", clientEventID: "e", auth: ["user": .null, "admin?": false], appStatus: "active",
      attrs: .json([["id": "a"]])),
    .addQueryOK(q: .json(["todos": [:]]), result: .json([["data": [:]]]), processedTxID: 4, clientEventID: "e"),
    .addQueryExists(q: .json(["todos": [:]]), clientEventID: "e"),
    .removeQueryOK(q: .json(["todos": [:]]), clientEventID: "e"),
    .refreshOK(
      processedTxID: 9,
      computations: [.init(q: .json(["a": [:]]), result: .json([1])), .init(q: .json(["b": [:]]), result: .json([2]))],
      attrs: .json([])),
    .refreshOK(processedTxID: 10, computations: [], attrs: nil),
    .transactOK(txID: 12, clientEventID: "e"),
    .error(ServerError.paramMissing("q"), clientEventID: "e", originalEvent: OriginalEvent(json: ["op": "add-query"])),
    .error(ServerError.serverFault("disk full"), clientEventID: .none, originalEvent: OriginalEvent(sessionID: "s")),
    .error(ServerError.invalidOp(1), clientEventID: ClientEventID(json: 7), originalEvent: OriginalEvent(json: .null)),
    .joinRoomOK(roomID: "r", clientEventID: "e"),
    .joinRoomError(roomID: "r", error: ServerError(.permissionDenied, message: "no", hint: ["x": 1])),
    .leaveRoomOK(roomID: "r", clientEventID: "e"),
    .setPresenceOK(roomID: "r", clientEventID: "e"),
    .refreshPresence(roomID: "r", data: ["s1": ["data": [:]]]),
    .patchPresence(roomID: "r", edits: .json([[["s1", "data"], "r", 1]])),
    .clientBroadcastOK(roomID: "r", topic: "t", data: ["peer-id": "s"], clientEventID: "e"),
    .serverBroadcast(roomID: "r", topic: "t", data: ["peer-id": "s", "data": ["x": 1]]),
    .appStatusChanged(status: "read-only"),
    .sseInit(machineID: "m", sessionID: "s"),
  ]

  @Test("Every server message reads back as itself, through its text")
  func serverRoundTrip() throws {
    #expect(Set(Self.serverMessages.map(\.op)) == Set(ServerOp.allCases))
    for message in Self.serverMessages {
      let text = message.serialized()
      #expect(try ServerMessage(frame: try JSON.parse(text)) == message, "\(text)")
    }
  }

  @Test("A raw fragment is written as its text and reads back as its value")
  func rawFragments() throws {
    let result: JSON = [["data": ["datalog-result": ["join-rows": []]]]]
    let raw = ServerMessage.addQueryOK(
      q: .raw(#"{"todos":{}}"#), result: .raw(result.serialized()), processedTxID: 3, clientEventID: "e")
    let text = raw.serialized()
    #expect(text == #"{"op":"add-query-ok","q":{"todos":{}},"result":[{"data":{"datalog-result":{"join-rows":[]}}}],"result-meta":null,"processed-tx-id":3,"client-event-id":"e"}"#)
    #expect(
      try ServerMessage(frame: try JSON.parse(text))
        == .addQueryOK(q: .json(["todos": [:]]), result: .json(result), processedTxID: 3, clientEventID: "e"))
  }

  @Test("A frame the server cannot take gets the reference's error")
  func refusals() throws {
    func refusal(_ frame: JSON) -> ServerError? {
      do {
        _ = try ClientMessage(frame: frame)
        return nil
      } catch { return error }
    }
    #expect(refusal(["op": "nope"]) == .invalidOp("nope"))
    #expect(refusal([1, 2]) == .invalidOp(.null))
    #expect(refusal(["op": "init"]) == .paramMissing("app-id"))
    #expect(refusal(["op": "init", "app-id": 5]) == .paramMalformed("app-id", input: 5))
    #expect(refusal(["op": "init", "app-id": "a", "refresh-token": 5]) == .paramMalformed("refresh-token", input: 5))
    #expect(refusal(["op": "join-room"]) == .paramMissing("room-id"))
    #expect(refusal(["op": "set-presence", "room-id": ["x"]]) == .paramMalformed("room-id", input: ["x"]))
    // A query or tx-steps are read by their own readers, which refuse them in their own words.
    #expect(refusal(["op": "add-query"]) == nil)
    #expect(refusal(["op": "transact", "tx-steps": "x"]) == nil)
  }

  @Test("A server frame the client cannot use says why")
  func unreadableServerFrames() {
    for (frame, reason) in [
      (["op": "transact-ok"] as JSON, "transact-ok without a tx-id"),
      (["op": "refresh-presence", "room-id": "r", "data": 1], "refresh-presence without a data object"),
      (["op": "telepathy"], "an unknown op telepathy"),
      (["tx-id": 1], "a message without an op"),
    ] {
      #expect(throws: ServerMessageError(description: reason)) { try ServerMessage(frame: frame) }
    }
  }

  @Test("A server error reads back from its frame with its type, status and hint")
  func serverErrorFromFrame() {
    let error = ServerError(frame: ["status": 400, "type": "record-not-unique", "message": "m", "hint": ["record-type": "attr"]])
    #expect(error.type == .recordNotUnique)
    #expect(error.isAttrConflict)
    #expect(!error.isFault)
    #expect(ServerError(frame: ["status": 500, "message": "boom"]).isFault)
    #expect(ServerError(frame: ["status": 500, "message": "boom"]).type == nil)
  }
}
