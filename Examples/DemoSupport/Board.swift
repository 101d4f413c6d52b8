/// A `width` × `height` board in a frame, one line per row: `+--…--+`, `|…|` rows, `+--…--+`.
/// `cell(x, y)` draws a square in `cellWidth` visible characters (ANSI colors do not count).
public func boardLines(width: Int, height: Int, cellWidth: Int = 1, cell: (_ x: Int, _ y: Int) -> String) -> [String] {
  let border = "+" + String(repeating: "-", count: width * cellWidth) + "+"
  let rows = (0..<height).map { y in "|" + (0..<width).map { x in cell(x, y) }.joined() + "|" }
  return [border] + rows + [border]
}

/// The first letter of `name`, upper-cased ("?" for an empty name): how a board shows a person.
public func initial(of name: String) -> String {
  name.first.map { String($0).uppercased() } ?? "?"
}
