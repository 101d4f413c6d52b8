public import ExampleSchema
import Foundation
public import Observation
public import SharingInstant

/// The Typing Indicator and Avatar Stack case studies, with messages and emoji reactions: a chat
/// room whose presence says who is here and who is typing.
@MainActor
@Observable
public final class ChatModel {
  /// You and the peers in the room; `withLock` on it publishes your presence.
  @ObservationIgnored @Shared public var presence: RoomPresence<ChatPresence>
  /// Emoji reactions: fire-and-forget events to the others in the room (never stored).
  @ObservationIgnored @Shared public var reactions: TopicChannel<ChatEmojiTopic>
  /// The room's newest messages, newest first (stored, so they survive a restart).
  @ObservationIgnored @Shared public var messages: IdentifiedArrayOf<Message>

  /// The room's id.
  public let roomID: String

  /// Joins `roomID` as `name` shown in `color` (a hex color such as `#E5484D`).
  public init(name: String, color: String, roomID: String = "lobby", messageLimit: Int = 20) {
    self.roomID = roomID
    _presence = Shared(
      .instantPresence(Schema.Rooms.chat, roomId: roomID, initialPresence: ChatPresence(name: name, color: color, isTyping: false)))
    _reactions = Shared(.instantTopic(Schema.Topics.Chat.emoji, roomId: roomID, maxEvents: 10))
    let newest = Schema.messages.orderBy(\.createdAt, .desc).limit(messageLimit)
    _messages = Shared(.instantSync(newest))
  }

  /// Your name in the room.
  public var name: String { presence.user.name }

  /// The others in the room, in the order they joined.
  public var peers: [Peer<ChatPresence>] { presence.peers }

  /// The messages shown, oldest first.
  public var timeline: [Message] { messages.elements.reversed() }

  /// Who is in the room, you first: the avatar stack.
  public var avatars: [ChatPresence] { [presence.user] + presence.peers.map(\.data) }

  /// "Ann is typing…", "Ann and Bob are typing…", "Ann and 2 others are typing…", or `nil`.
  public var typingText: String? {
    let typers = presence.peers.filter(\.data.isTyping).map(\.data.name)
    switch typers.count {
    case 0: return nil
    case 1: return "\(typers[0]) is typing…"
    case 2: return "\(typers[0]) and \(typers[1]) are typing…"
    default: return "\(typers[0]) and \(typers.count - 1) others are typing…"
    }
  }

  /// Call with the text being typed: presence says you are typing while it is not empty.
  /// Publishes only when that changes.
  public func draftChanged(_ draft: String) {
    let typing = !draft.isEmpty
    guard presence.user.isTyping != typing else { return }
    $presence.withLock { $0.user.isTyping = typing }
  }

  /// Sends `text` as a message from you and stops the typing indicator; an empty text sends nothing.
  @discardableResult
  public func send(_ text: String) -> Message? {
    draftChanged("")
    let text = text.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { return nil }
    let createdAt = max(Date().timeIntervalSince1970 * 1000, (messages.first?.createdAt ?? 0) + 1)
    let message = Message(text: text, author: name, createdAt: createdAt)
    $messages.withLock { $0.insert(message, at: 0) }
    return message
  }

  /// Sends `emoji` to everyone else in the room.
  public func react(_ emoji: String) async throws {
    try await $reactions.publish(ChatEmojiTopic(emoji: emoji, name: name))
  }

  /// A problem with presence (for example a peer whose presence does not decode) or with messages.
  public var error: (any Error)? { presence.error ?? $messages.loadError }
}
