#if canImport(SwiftUI)
  import ExampleSchema
  import SharingInstant
  import SwiftUI

  /// The Typing Indicator and Avatar Stack case studies, with messages and emoji reactions.
  public struct ChatView: View {
    @State private var model: ChatModel
    @State private var draft = ""

    public init(name: String, color: String, roomID: String = "lobby") {
      _model = State(initialValue: ChatModel(name: name, color: color, roomID: roomID))
    }

    public var body: some View {
      VStack(spacing: 8) {
        AvatarStack(people: model.avatars)
        List(model.timeline) { message in
          Text("\(message.author): ").bold() + Text(message.text)
        }
        if let typing = model.typingText {
          Text(typing).font(.caption).foregroundStyle(.secondary)
        }
        if let reaction = model.reactions.latestEvent {
          Text("\(reaction.data.name) reacted \(reaction.data.emoji)").font(.caption)
        }
        HStack {
          TextField("Message", text: $draft)
            .onChange(of: draft) { _, text in model.draftChanged(text) }
            .onSubmit {
              model.send(draft)
              draft = ""
            }
          ForEach(["🔥", "👍", "🎉"], id: \.self) { emoji in
            Button(emoji) { Task { try? await model.react(emoji) } }
          }
        }
        .padding(.horizontal)
      }
    }
  }

  /// Who is in the room, you first, as overlapping circles with initials.
  public struct AvatarStack: View {
    public var people: [ChatPresence]

    public init(people: [ChatPresence]) { self.people = people }

    public var body: some View {
      HStack(spacing: -8) {
        ForEach(Array(people.enumerated()), id: \.offset) { _, person in
          Text(String(person.name.prefix(1)).uppercased())
            .font(.headline)
            .frame(width: 36, height: 36)
            .background(Circle().fill(Color(hex: person.color)))
            .overlay(Circle().stroke(.background, lineWidth: 2))
        }
      }
      .animation(.default, value: people.map(\.name))
    }
  }

  extension Color {
    /// A color from `#RRGGBB` (gray when it does not parse).
    init(hex: String) {
      let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
      guard digits.count == 6, let value = UInt32(digits, radix: 16) else {
        self = .gray
        return
      }
      self.init(
        red: Double((value >> 16) & 0xff) / 255, green: Double((value >> 8) & 0xff) / 255,
        blue: Double(value & 0xff) / 255)
    }
  }
#endif
