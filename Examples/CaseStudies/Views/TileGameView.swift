#if canImport(SwiftUI)
  import ExampleSchema
  import SharingInstant
  import SwiftUI

  /// The Tile Game case study: tap a square to paint it in your color (tap again to clear it).
  public struct TileGameView: View {
    @State private var model: TileGameModel

    public init(name: String, color: String, board: String = "main") {
      _model = State(initialValue: TileGameModel(name: name, color: color, board: board))
    }

    public var body: some View {
      Grid(horizontalSpacing: 2, verticalSpacing: 2) {
        ForEach(0..<model.height, id: \.self) { y in
          GridRow {
            ForEach(0..<model.width, id: \.self) { x in
              Rectangle()
                .fill(model.color(x: x, y: y).map { Color(hex: $0) } ?? Color.secondary.opacity(0.2))
                .aspectRatio(1, contentMode: .fit)
                .overlay {
                  if let peer = model.others.first(where: { Int($0.data.cursorX) == x && Int($0.data.cursorY) == y }) {
                    Text(String(peer.data.name.prefix(1))).font(.caption2)
                  }
                }
                .onTapGesture {
                  model.moveSelection(dx: x - model.selection.x, dy: y - model.selection.y)
                  Task { try? await model.paint(x: x, y: y) }
                }
            }
          }
        }
      }
      .padding()
    }
  }
#endif
