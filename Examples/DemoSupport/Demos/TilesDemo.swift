public import CaseStudies
import ExampleSchema
internal import SharingInstant
internal import InstantDB

/// `swift run tiles`: the Tile Game case study — arrow keys move your selection (the others see
/// it move), space paints the square in your color or clears it (stored: the board survives).
@MainActor
public final class TilesDemo: TerminalDemo {
  public static let title = "Tile Game: a shared board, painted together"
  public let session: DemoSession
  public let model: TileGameModel

  public init(session: DemoSession) {
    self.session = session
    model = TileGameModel(name: session.options.name, color: session.options.resolvedColor, board: session.options.room ?? "main")
  }

  public let help = [
    "arrow keys (or h j k l)   move your selection",
    "space                     paint the square your color, or clear your color",
    "?                         this help",
  ]

  /// Who paints in `color`: you or a player here ("#" when nobody here has that color).
  func painter(_ color: String) -> String {
    if color == model.players.user.color { return initial(of: model.players.user.name) }
    return model.others.first { $0.data.color == color }.map { initial(of: $0.data.name) } ?? "#"
  }

  public func body() -> [String] {
    let me = model.selection
    let others = model.others.map { (x: Int($0.data.cursorX), y: Int($0.data.cursorY), data: $0.data) }
    var lines = ["Board “\(model.board)”: [ ] is your selection, ( ) the others'"]
    lines += boardLines(width: model.width, height: model.height, cellWidth: 3) { x, y in
      let color = model.color(x: x, y: y)
      let content = color.map { Terminal.colored(painter($0), $0) } ?? Terminal.dim(".")
      if (x, y) == me { return "[\(content)]" }
      if let other = others.last(where: { ($0.x, $0.y) == (x, y) }) {
        return Terminal.colored("(", other.data.color) + content + Terminal.colored(")", other.data.color)
      }
      return " \(content) "
    }
    lines.append("\(model.players.user.name) (you, \(initial(of: model.players.user.name))) at \(me.x),\(me.y)")
    for other in others { lines.append("\(other.data.name) (\(initial(of: other.data.name))) at \(other.x),\(other.y)") }
    let painted = model.tiles.count
    lines.append(painted == 1 ? "1 square painted" : "\(painted) squares painted")
    if let error = model.players.error ?? model.$tiles.loadError { lines.append(Terminal.colored("! \(error)", "#E5484D")) }
    if let notice = session.notice { lines.append(notice) }
    return lines
  }

  public func handle(_ key: Key) async {
    switch key {
    case .up, .text("k"): model.moveSelection(dx: 0, dy: -1)
    case .down, .text("j"): model.moveSelection(dx: 0, dy: 1)
    case .left, .text("h"): model.moveSelection(dx: -1, dy: 0)
    case .right, .text("l"): model.moveSelection(dx: 1, dy: 0)
    case .text(" "), .enter:
      let square = model.selection  // now, not when the task runs (after the next keys, maybe)
      Task { [model, session] in
        do {
          try await model.paint(x: square.x, y: square.y)
          session.notice = nil
        } catch {
          session.notice = "not painted: \(error)"
        }
      }
    case .text("?"): session.showingHelp.toggle()
    case .text("q"): session.notice = quitHint
    default: break
    }
  }

  public func save() async { try? await model.$tiles.save() }
}
