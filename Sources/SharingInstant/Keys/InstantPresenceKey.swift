import Dependencies
import InstantDB

/// Who is in a room and what they publish: `@Shared(.instantPresence(Schema.Rooms.chat, roomId: "a",
/// initialPresence: ChatPresence(name: "Ann")))`. Change your own presence with
/// `$presence.withLock { $0.user.typing = true }`; peers come from the server.
public struct InstantPresenceKey<Presence: Codable & Sendable & Equatable>: SharedKey {
  public typealias Value = RoomPresence<Presence>

  let session: PresenceSession<Presence>
  public let id: InstantKeyID

  init(roomType: String, roomID: String, initialPresence: Presence, client: InstantClient?) {
    @Dependency(\.defaultInstant) var defaultInstant
    let client = client ?? defaultInstant
    session = PresenceSession(client: client, roomType: roomType, roomID: roomID, initialPresence: initialPresence)
    id = InstantKeyID(client: client, query: [roomType: .string(roomID)], kind: "presence")
  }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    continuation.resumeReturningInitialValue()
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    session.subscribe(subscriber: subscriber)
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    session.save(value.user, continuation: continuation)
  }
}

extension SharedReaderKey {
  /// Presence in the room `roomId` of a generated room type.
  public static func instantPresence<Presence>(
    _ room: RoomKey<Presence>, roomId: String, initialPresence: Presence, client: InstantClient? = nil
  ) -> Self where Self == InstantPresenceKey<Presence>.Default {
    instantPresence(roomType: room.type, roomId: roomId, initialPresence: initialPresence, client: client)
  }

  /// Presence in the room `roomId` of type `roomType`, without generated code.
  public static func instantPresence<Presence>(
    roomType: String, roomId: String, initialPresence: Presence, client: InstantClient? = nil
  ) -> Self where Self == InstantPresenceKey<Presence>.Default {
    Self[
      InstantPresenceKey(roomType: roomType, roomID: roomId, initialPresence: initialPresence, client: client),
      default: RoomPresence(user: initialPresence)
    ]
  }
}
