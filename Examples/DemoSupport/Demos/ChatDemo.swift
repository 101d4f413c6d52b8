public import CaseStudies
import ExampleSchema
import Foundation
internal import InstantDB
import SharingInstant
internal import SharingInstant

/// `swift run chat`: the Typing Indicator and Avatar Stack case studies, with messages and emoji
/// reactions. While you type in one terminal, the others say so.
@MainActor
public final class ChatDemo: TerminalDemo {
  public static let title = "Typing Indicator, Avatar Stack, emoji reactions"
  public let session: DemoSession
  public let model: ChatModel
  private var draft = LineEditor()
  /// Clears "is typing" after ``idleAfter`` without a keystroke (the draft stays).
  private var idleTimer: Task<Void, Never>?
  let idleAfter = Duration.seconds(3)

  public init(session: DemoSession) {
    self.session = session
    model = ChatModel(
      name: session.options.name, color: session.options.resolvedColor, roomID: session.options.room ?? "lobby")
  }

  public let help = [
    "text, Enter      send a message (the others see you typing meanwhile)",
    "/react <emoji>   send everyone in the room a reaction, e.g. /react 🔥",
    "?                this help (on an empty line)",
  ]

  func avatar(_ presence: ChatPresence, you: Bool = false) -> String {
    Terminal.colored("(\(initial(of: presence.name)))", presence.color) + " " + presence.name + (you ? " (you)" : "")
  }

  public func body() -> [String] {
    let avatars = model.avatars
    var lines = ["In room “\(model.roomID)”: " + avatars.enumerated().map { avatar($1, you: $0 == 0) }.joined(separator: "  ")]
    lines.append("")
    if model.timeline.isEmpty { lines.append("  (no messages yet)") }
    for message in model.timeline {
      let color = avatars.first { $0.name == message.author }?.color
      let author = color.map { Terminal.colored(message.author, $0) } ?? message.author
      lines.append("  \(author): \(message.text)")
    }
    lines.append("")
    for event in model.reactions.events.suffix(3) {
      lines.append("\(event.data.name) reacted \(event.data.emoji)")
    }
    lines.append(model.typingText.map(Terminal.dim) ?? "")
    if let error = model.error { lines.append(Terminal.colored("! \(error)", "#E5484D")) }
    if let notice = session.notice { lines.append(notice) }
    lines.append("> " + draft.text)
    return lines
  }

  public func handle(_ key: Key) async {
    if key == .text("?"), draft.text.isEmpty {
      session.showingHelp.toggle()
      return
    }
    switch draft.handle(key) {
    case .unchanged:
      break
    case .edited:
      draftEdited()
    case .submitted(let typed):
      let text = typed.trimmingCharacters(in: .whitespaces)
      idleTimer?.cancel()
      if text.hasPrefix("/") {
        model.draftChanged("")
        command(text)
      } else if ["q", "quit", "exit"].contains(text.lowercased()) {
        // Someone trying to quit, not a message for everyone.
        model.draftChanged("")
        session.notice = "\(quitHint) (“\(text)” was not sent)"
      } else {
        session.notice = nil
        model.send(text)
      }
    }
  }

  public func save() async { try? await model.$messages.save() }

  private func draftEdited() {
    model.draftChanged(draft.text)
    idleTimer?.cancel()
    guard !draft.text.isEmpty else { return }
    idleTimer = Task { [model, idleAfter] in
      try? await Task.sleep(for: idleAfter)
      if !Task.isCancelled { model.draftChanged("") }
    }
  }

  /// Runs a `/command`.
  private func command(_ text: String) {
    let words = text.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
    switch words.first?.lowercased() {
    case "q", "quit", "exit":
      session.notice = quitHint
    case "react", "r":
      let emoji = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
      guard !emoji.isEmpty else {
        session.notice = "react with what? `/react 🔥`"
        return
      }
      session.notice = "you reacted \(emoji)"
      Task { [model, session] in
        do { try await model.react(emoji) } catch { session.notice = "the reaction was not sent: \(error)" }
      }
    case "help", "?":
      session.showingHelp.toggle()
    default:
      session.notice = "unknown command \(text) (? for help)"
    }
  }
}
