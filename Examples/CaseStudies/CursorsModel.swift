public import ExampleSchema
public import Observation
public import SharingInstant

/// The Cursors case study: everyone's pointer on one canvas, through presence alone.
@MainActor
@Observable
public final class CursorsModel {
  /// Your cursor and the peers'; `withLock` on it publishes yours.
  @ObservationIgnored @Shared public var presence: RoomPresence<CursorsPresence>

  /// Joins the canvas `roomID` as `name` in `color`, with the cursor at (`x`, `y`).
  public init(name: String, color: String, roomID: String = "canvas", x: Double = 0, y: Double = 0) {
    _presence = Shared(
      .instantPresence(
        Schema.Rooms.cursors, roomId: roomID,
        initialPresence: CursorsPresence(name: name, color: color, cursorX: x, cursorY: y)))
  }

  /// Your cursor.
  public var me: CursorsPresence { presence.user }

  /// The others' cursors.
  public var others: [Peer<CursorsPresence>] { presence.peers }

  /// Moves your cursor to (`x`, `y`).
  public func move(x: Double, y: Double) {
    guard presence.user.cursorX != x || presence.user.cursorY != y else { return }
    $presence.withLock {
      $0.user.cursorX = x
      $0.user.cursorY = y
    }
  }

  /// Moves your cursor by (`dx`, `dy`), kept inside `width` × `height`.
  public func nudge(dx: Double, dy: Double, width: Double, height: Double) {
    move(
      x: min(max(me.cursorX + dx, 0), width - 1),
      y: min(max(me.cursorY + dy, 0), height - 1))
  }
}
