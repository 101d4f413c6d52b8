import Dependencies
import InstantDB

/// Who is in a room and what they publish: `@Shared(.instantPresence(Schema.Rooms.chat, roomId: "a",
/// initialPresence: ChatPresence(name: "Ann")))`. Change your own presence with
/// `$presence.withLock { $0.user.typing = true }`; peers come from the server.
public struct InstantPresenceKey<Presence: Codable & Sendable & Equatable>: SharedKey {
  public typealias Value = RoomPresence<Presence>

  package let session: PresenceSession<Presence>
  public let id: InstantKeyID

  package init(roomType: String, roomID: String, initialPresence: Presence, client: InstantClient?) {
    @Dependency(\.defaultInstant) var defaultInstant
    let client = client ?? defaultInstant
    let id = InstantKeyID(client: client, query: [roomType: .string(roomID)], kind: "presence")
    // Sharing's one reference for the id, found by making the `@Shared` over the key again.
    let readBack: @Sendable (PresenceSession<Presence>) -> Shared<Value> = {
      Shared(wrappedValue: RoomPresence(user: initialPresence), Self(session: $0, id: id))
    }
    self.init(
      session: PresenceSession(
        client: client, roomType: roomType, roomID: roomID, initialPresence: initialPresence, readBack: readBack),
      id: id)
  }

  init(session: PresenceSession<Presence>, id: InstantKeyID) {
    self.session = session
    self.id = id
  }

  /// Test seams (see ``PresenceSessionHooks``).
  package var hooks: PresenceSessionHooks<Presence> {
    get { session.hooks }
    nonmutating set { session.hooks = newValue }
  }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    session.load(continuation: continuation)
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
