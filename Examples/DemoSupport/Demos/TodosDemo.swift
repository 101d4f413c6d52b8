public import CaseStudies
import ExampleSchema
import Foundation
internal import IdentifiedCollections

/// `swift run todos`: the Sync case study — a numbered list, done ones marked `[x]`, and a line
/// editor for `add`, `toggle`, `rename`, `rm`, `clear`.
@MainActor
public final class TodosDemo: TerminalDemo {
  public static let title = "Sync: one todo list, edited everywhere at once"
  public let session: DemoSession
  public let model: TodosModel
  private var line = LineEditor()

  /// The model is made on the client of the keys made now (`DependencyValues.defaultInstant`).
  public init(session: DemoSession) {
    self.session = session
    model = TodosModel()
  }

  public let help = [
    "add <title>         add a todo",
    "toggle <n>          mark todo n done, or open again",
    "rename <n> <title>  rename todo n",
    "rm <n>              delete todo n",
    "clear               delete every done todo",
    "?                   this help (on an empty line)",
  ]

  public func body() -> [String] {
    var lines = ["Todos: \(model.remaining) remaining of \(model.todos.count)"]
    if model.todos.isEmpty { lines.append("  (none yet: type `add <title>` and Enter)") }
    for (index, todo) in model.todos.enumerated() {
      let number = String(index + 1).leftPadded(to: 3)
      lines.append("\(number). [\(todo.done ? "x" : " ")] \(todo.done ? Terminal.dim(todo.title) : todo.title)")
    }
    lines.append("")
    if let error = model.error { lines.append(Terminal.colored("! the server refused a write: \(error)", "#E5484D")) }
    if let notice = session.notice { lines.append(notice) }
    lines.append("> " + line.text)
    return lines
  }

  public func handle(_ key: Key) async {
    if key == .text("?"), line.text.isEmpty {
      session.showingHelp.toggle()
    } else if case .submitted(let typed) = line.handle(key) {
      let command = typed.trimmingCharacters(in: .whitespaces)
      session.notice = ["q", "quit", "exit"].contains(command.lowercased()) ? quitHint : perform(command)
    }
  }

  public func save() async { try? await model.save() }

  /// Runs one command line; the notice to show, if any.
  func perform(_ command: String) -> String? {
    let words = command.split(separator: " ", maxSplits: 1).map(String.init)
    guard let verb = words.first?.lowercased() else { return nil }
    let argument = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
    func todo(_ text: Substring) -> Todo? {
      guard let number = Int(text), model.todos.indices.contains(number - 1) else { return nil }
      return model.todos[number - 1]
    }
    switch verb {
    case "add", "a":
      guard let added = model.add(argument) else { return "add what? `add <title>`" }
      return "added “\(added.title)”"
    case "toggle", "t", "x":
      guard let todo = todo(Substring(argument)) else { return "no todo “\(argument)”: `toggle <n>`" }
      model.toggle(todo.id)
      return nil
    case "rename", "mv":
      let parts = argument.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, let todo = todo(parts[0]) else { return "`rename <n> <title>`" }
      model.rename(todo.id, to: String(parts[1]))
      return nil
    case "rm", "remove", "del":
      guard let todo = todo(Substring(argument)) else { return "no todo “\(argument)”: `rm <n>`" }
      model.remove(todo.id)
      return "deleted “\(todo.title)”"
    case "clear":
      let done = model.todos.count(where: \.done)
      model.clearCompleted()
      return done == 1 ? "deleted 1 done todo" : "deleted \(done) done todos"
    case "?", "help":
      session.showingHelp.toggle()
      return nil
    default:
      return "unknown command “\(verb)” (? for help)"
    }
  }
}

extension String {
  func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
