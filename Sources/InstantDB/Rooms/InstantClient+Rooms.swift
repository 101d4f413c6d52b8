public import InstantCore
public import OrderedCollections

extension InstantClient {
  /// Joins the room `id` of type `type` with `initialPresence` (sent with `join-room`), typed:
  /// every peer publishes a `Presence`.
  ///
  /// ```swift
  /// let room = await db.joinRoom(type: "chat", id: "room-42", initialPresence: ChatPresence(name: "Alice"))
  /// for await presence in room.presenceUpdates() { print(presence.peers.map(\.data.name)) }
  /// ```
  ///
  /// Joining a room this client is already in adds a handle to it: the presence already set wins,
  /// unless it is empty (the room was joined for a topic only), as in the reference client.
  /// Throws only if `initialPresence` does not encode as JSON.
  public func joinRoom<Presence: Codable & Sendable & Equatable>(
    type: String, id: String, initialPresence: Presence
  ) async throws -> InstantRoom<Presence> {
    try await makeRoom(type: type, id: id, initialPresence: initialPresence)
  }

  /// Joins the room `id` of type `type`, with untyped (InstantCore's `JSON`) presence.
  public func joinRoom(type: String, id: String, initialPresence: JSON = .object([:])) async -> InstantRoom<JSON> {
    // JSON always encodes.
    try! await makeRoom(type: type, id: id, initialPresence: initialPresence)
  }

  private func makeRoom<Presence: Codable & Sendable & Equatable>(
    type: String, id: String, initialPresence: Presence
  ) async throws -> InstantRoom<Presence> {
    let initial = try PresenceCoding.encode(initialPresence)
    let room = InstantRoom(type: type, id: id, initialPresence: initialPresence, reactor: reactor, logger: reactor.logger)
    await reactor.joinRoom(type: type, id: id, handle: room.handle, initialPresence: initial)
    return room
  }
}
