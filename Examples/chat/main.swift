// `swift run chat`: the Typing Indicator and Avatar Stack case studies, with messages and emoji
// reactions, in a terminal. Run it in two terminals: while you type in one, the other says so.
import CaseStudies
import DemoSupport
import ExampleSchema
import Foundation

let session = await DemoSession.start("chat", title: "Typing Indicator, Avatar Stack, emoji reactions")
let model = ChatModel(name: session.options.name, color: session.options.resolvedColor, roomID: session.options.room ?? "lobby")
var draft = LineEditor()
/// Clears "is typing" after a few seconds without a keystroke (the draft stays).
var idleTimer: Task<Void, Never>?
let idleAfter = Duration.seconds(3)

let help = [
  "type and Enter      send a message (the others see “\(model.name) is typing…” meanwhile)",
  "/react <emoji>      send an emoji reaction to everyone in the room, e.g. /react 🔥",
  "/q, Ctrl-C          quit",
  "?                   this help (on an empty line)",
]

@MainActor func avatar(_ presence: ChatPresence, you: Bool = false) -> String {
  let initial = presence.name.first.map { String($0).uppercased() } ?? "?"
  return Terminal.colored("(\(initial))", presence.color, background: false) + " " + presence.name + (you ? " (you)" : "")
}

@MainActor func colorOf(author: String) -> String? {
  model.avatars.first { $0.name == author }?.color
}

@MainActor func body() -> [String] {
  var lines = ["In room “\(model.roomID)”: " + model.avatars.enumerated().map { avatar($1, you: $0 == 0) }.joined(separator: "  ")]
  lines.append("")
  if model.timeline.isEmpty { lines.append("  (no messages yet)") }
  for message in model.timeline {
    let author = colorOf(author: message.author).map { Terminal.colored(message.author, $0) } ?? message.author
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

@MainActor func draftEdited() {
  model.draftChanged(draft.text)
  idleTimer?.cancel()
  guard !draft.text.isEmpty else { return }
  idleTimer = Task {
    try? await Task.sleep(for: idleAfter)
    if !Task.isCancelled { model.draftChanged("") }
  }
}

/// Runs a `/command`; whether to quit.
@MainActor func command(_ text: String) -> Bool {
  let words = text.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
  switch words.first?.lowercased() {
  case "q", "quit", "exit":
    return true
  case "react", "r":
    let emoji = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
    guard !emoji.isEmpty else {
      session.notice = "react with what? `/react 🔥`"
      return false
    }
    session.notice = "you reacted \(emoji)"
    Task {
      do { try await model.react(emoji) } catch { session.notice = "the reaction was not sent: \(error)" }
    }
  case "help", "?":
    session.showingHelp.toggle()
  default:
    session.notice = "unknown command \(text) (? for help)"
  }
  return false
}

await session.run(help: help, body: body, save: { try? await model.$messages.save() }) { key in
  if key == .text("?"), draft.text.isEmpty {
    session.showingHelp.toggle()
    return .handled
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
      if command(text) { return .quit }
    } else {
      session.notice = nil
      model.send(text)
    }
  }
  return .handled
}
