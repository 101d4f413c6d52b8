import DemoSupport
import Foundation
import SharingInstant
import Testing

/// The demos on an 80 × 24 terminal.
@Suite("Frames on 80 × 24", .timeLimit(.minutes(10)))
@MainActor
struct FrameLayoutTests {
  @Test("Header, status and help fit in 80 columns, in every demo", arguments: ["todos", "chat", "cursors", "tiles"])
  func headerStatusAndHelpFit(command: String) async throws {
    try await withTwoClients { a, _ in
      let options = try #require(try DemoOptions.parse(["--name", "user-abcd"], command: command))
            let server = try await DemoServer.startInMemory()  // hosting: the longest header
      let titles = ["todos": TodosDemo.title, "chat": ChatDemo.title, "cursors": CursorsDemo.title, "tiles": TilesDemo.title]
      let session = DemoSession(command: command, title: titles[command]!, options: options, server: server, client: a)
      session.showingHelp = true
      let demo: any TerminalDemo = withDependencies { $0.defaultInstant = a } operation: {
        switch command {
        case "todos": TodosDemo(session: session)
        case "chat": ChatDemo(session: session)
        case "cursors": CursorsDemo(session: session)
        default: TilesDemo(session: session)
        }
      }
      let frame = session.frame(demo).map { plain([$0]).dropLast() }
      let top = frame.prefix { !$0.isEmpty }.count + 1 + demo.help.count  // header and status, blank, help
      for line in frame.prefix(top) {
        #expect(line.count <= 80, "\(line.count) columns: \(line)")
      }
      await server.stop()
    }
  }

  @Test("A frame taller than the terminal keeps its top and its last lines, saying how many are hidden")
  func tallFramesFit() {
    let lines = (1...100).map { "line \($0)" }
    let fitted = Terminal.fit(lines, rows: 24)
    #expect(fitted.count == 24)
    #expect(Array(fitted.prefix(19)) == Array(lines.prefix(19)))
    #expect(Array(fitted.suffix(4)) == Array(lines.suffix(4)))
    #expect(plain([fitted[19]]).contains("… 77 more lines"))
    #expect(Terminal.fit(lines, rows: nil) == lines, "not a terminal: everything")
  }

  @Test("A long reason is wrapped at spaces into lines of at most 80 columns, nothing lost")
  func wrapping() {
    let reason = "the server refused this client: " + String(repeating: "word ", count: 40) + String(repeating: "x", count: 100)
    let lines = wrap(reason)
    #expect(lines.allSatisfy { $0.count <= 80 })
    #expect(lines.count >= 4)
    #expect(lines.joined(separator: " ").replacingOccurrences(of: "x x", with: "xx") == reason)
  }
}
