#if canImport(SwiftUI)
  import ExampleSchema
  import SharingInstant
  import SwiftUI

  /// The Cursors case study: move the pointer (or drag) and everyone sees it.
  public struct CursorsView: View {
    @State private var model: CursorsModel

    public init(name: String, color: String, roomID: String = "canvas") {
      _model = State(initialValue: CursorsModel(name: name, color: color, roomID: roomID))
    }

    public var body: some View {
      ZStack(alignment: .topLeading) {
        Color.clear.contentShape(Rectangle())
        ForEach(model.others) { peer in
          Label(peer.data.name, systemImage: "cursorarrow")
            .foregroundStyle(Color(hex: peer.data.color))
            .offset(x: peer.data.cursorX, y: peer.data.cursorY)
        }
      }
      .onContinuousHover { phase in
        if case .active(let point) = phase { model.move(x: point.x, y: point.y) }
      }
      .gesture(DragGesture(minimumDistance: 0).onChanged { model.move(x: $0.location.x, y: $0.location.y) })
    }
  }
#endif
