public import CaseStudies
import ExampleSchema
internal import InstantDB

/// `swift run cursors`: the Cursors case study — arrow keys move your cursor; everyone else's
/// moves as they press theirs (presence only: nothing is stored).
@MainActor
public final class CursorsDemo: TerminalDemo {
  public static let title = "Cursors: everyone's pointer on one canvas"
  public let session: DemoSession
  public let model: CursorsModel
  public let width = 40
  public let height = 12

  public init(session: DemoSession) {
    self.session = session
    model = CursorsModel(name: session.options.name, color: session.options.resolvedColor, roomID: session.options.room ?? "canvas")
  }

  public let help = [
    "arrow keys (or h j k l)   move your cursor",
    "?                         this help",
  ]

  /// A cursor's square on this grid (a peer on a bigger canvas is kept at its edge).
  func square(_ cursor: CursorsPresence) -> (x: Int, y: Int) {
    func clamp(_ value: Double, _ limit: Int) -> Int { value.isFinite ? min(max(Int(value), 0), limit - 1) : 0 }
    return (clamp(cursor.cursorX, width), clamp(cursor.cursorY, height))
  }

  public func body() -> [String] {
    let me = square(model.me)
    let others = model.others.map { (square: square($0.data), data: $0.data) }
    var lines = boardLines(width: width, height: height) { x, y in
      if (x, y) == me { return Terminal.colored("@", model.me.color) }
      if let other = others.last(where: { $0.square == (x, y) }) {
        return Terminal.colored(initial(of: other.data.name), other.data.color)
      }
      return Terminal.dim(".")
    }
    lines.append("@ \(model.me.name) (you) at \(me.x),\(me.y)")
    for other in others {
      lines.append("\(initial(of: other.data.name)) \(other.data.name) at \(other.square.x),\(other.square.y)")
    }
    if others.isEmpty { lines.append("(nobody else here: run `swift run cursors` in another terminal)") }
    if let error = model.presence.error { lines.append(Terminal.colored("! \(error)", "#E5484D")) }
    if let notice = session.notice { lines.append(notice) }
    return lines
  }

  public func handle(_ key: Key) async {
    let (w, h) = (Double(width), Double(height))
    switch key {
    case .up, .text("k"): model.nudge(dx: 0, dy: -1, width: w, height: h)
    case .down, .text("j"): model.nudge(dx: 0, dy: 1, width: w, height: h)
    case .left, .text("h"): model.nudge(dx: -1, dy: 0, width: w, height: h)
    case .right, .text("l"): model.nudge(dx: 1, dy: 0, width: w, height: h)
    case .text("?"): session.showingHelp.toggle()
    case .text("q"): session.notice = quitHint
    default: session.notice = nil
    }
  }
}
