public import ExampleSchema
public import Observation
public import SharingInstant
import Foundation

/// The Tile Game case study: a shared board whose squares anyone paints in their color, with
/// everyone's selected square shown live (presence) and the board stored (a sync key).
@MainActor
@Observable
public final class TileGameModel {
  /// The painted squares of the board.
  @ObservationIgnored @Shared public var tiles: IdentifiedArrayOf<Tile>
  /// Your selection and the other players'; the cursor is the selected square.
  @ObservationIgnored @Shared public var players: RoomPresence<CursorsPresence>

  private let client: InstantClient
  public let board: String
  public let width: Int
  public let height: Int

  /// Opens `board` (`width` × `height` squares) as `name` painting in `color`.
  public init(name: String, color: String, board: String = "main", width: Int = 8, height: Int = 8) {
    self.board = board
    self.width = width
    self.height = height
    @Dependency(\.defaultInstant) var client
    self.client = client
    _tiles = Shared(.instantSync(Schema.tiles.where(\.board, .eq(board))))
    _players = Shared(
      .instantPresence(
        Schema.Rooms.cursors, roomId: "tiles-\(board)",
        initialPresence: CursorsPresence(name: name, color: color, cursorX: 0, cursorY: 0)))
  }

  /// The color of the square at (`x`, `y`), `nil` when it was never painted.
  public func color(x: Int, y: Int) -> String? {
    tiles[id: Self.tileID(board: board, x: x, y: y)]?.color
  }

  /// Your selected square.
  public var selection: (x: Int, y: Int) { (Int(players.user.cursorX), Int(players.user.cursorY)) }

  /// Moves your selection by (`dx`, `dy`), kept on the board.
  public func moveSelection(dx: Int, dy: Int) {
    let x = min(max(selection.x + dx, 0), width - 1)
    let y = min(max(selection.y + dy, 0), height - 1)
    guard (x, y) != selection else { return }
    $players.withLock {
      $0.user.cursorX = Double(x)
      $0.user.cursorY = Double(y)
    }
  }

  /// Paints your selected square in your color (or clears it when it already has your color).
  public func paintSelection() async throws {
    try await paint(x: selection.x, y: selection.y)
  }

  /// Paints (`x`, `y`) in your color, or clears it when it already has your color.
  ///
  /// A square's id is derived from the board and its place, and painting is an upsert (the
  /// generated `Tile.update`), so two players painting the same new square at once write one
  /// entity and the later paint wins; a `withLock` append would send `create`, which the server
  /// refuses for the second of them.
  public func paint(x: Int, y: Int) async throws {
    let id = Self.tileID(board: board, x: x, y: y)
    let color = players.user.color
    if tiles[id: id]?.color == color {
      $tiles.withLock { _ = $0.remove(id: id) }
      try await $tiles.save()
    } else {
      try await client.transact(Tile.update(id, board: board, x: Double(x), y: Double(y), color: color))
    }
  }

  /// The others on the board.
  public var others: [Peer<CursorsPresence>] { players.peers }

  /// A stable UUID for the square (`x`, `y`) of `board` (a version-8 UUID from two FNV-1a hashes).
  public static func tileID(board: String, x: Int, y: Int) -> String {
    let name = Array("\(board)/\(x)/\(y)".utf8)
    func fnv(_ seed: UInt64) -> UInt64 {
      var hash = seed
      for byte in name {
        hash ^= UInt64(byte)
        hash &*= 0x100_0000_01b3
      }
      return hash
    }
    let high = (fnv(0xcbf2_9ce4_8422_2325) & 0xffff_ffff_ffff_0fff) | 0x8000  // version 8
    let low = (fnv(0x84222325_cbf29ce4) & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000  // variant 10
    let hex = String(format: "%016llx%016llx", high, low)
    let chars = Array(hex)
    func part(_ range: Range<Int>) -> String { String(chars[range]) }
    return [part(0..<8), part(8..<12), part(12..<16), part(16..<20), part(20..<32)].joined(separator: "-")
  }
}
