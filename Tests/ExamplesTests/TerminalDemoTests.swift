import DemoSupport
import Foundation
import InstantLocal
import InstantLocalTesting
import Testing

/// The terminal demos driven as a person drives them: two processes of one demo on one server,
/// keys typed into one's stdin, the change read off the other's screen (stdout).
/// One test at a time: each runs two demo processes, and the machine may have two cores.
@Suite("Terminal demos", .serialized, .timeLimit(.minutes(10)))
struct TerminalDemoTests {
  /// A free port and a data directory for demos that host their own server; removed at the end.
  struct Hosting {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demos-\(UUID().uuidString)")
    let port = freePort()
    var dataFile: String { directory.appendingPathComponent("demos.sqlite").path }
    /// The options every demo of this test starts with.
    var options: [String] { ["--port", "\(port)", "--data", dataFile] }
    func remove() { try? FileManager.default.removeItem(at: directory) }
  }

  /// Whether `frame` shows the hint a `q` gets as its own line (the header says it too).
  static func showsQuitHint(_ frame: String) -> Bool {
    frame.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "Ctrl-C quits" }
  }

  /// Runs `body` with two processes of `demo` (ann and bob) on a fresh in-memory server, and
  /// stops them afterwards, whatever happens.
  func withTwo(
    _ demo: String, extra: [String] = [],
    _ body: (_ ann: DemoProcess, _ bob: DemoProcess) async throws -> Void
  ) async throws {
    try await withInstantLocal { server in
      let port = try #require(await server.port)
      let common = ["--server", "http://127.0.0.1:\(port)"] + extra
      let ann = try DemoProcess(demo, common + ["--name", "ann", "--color", "#E5484D"], label: "\(demo) ann")
      defer { ann.stop() }
      let bob = try DemoProcess(demo, common + ["--name", "bob", "--color", "#0090FF"], label: "\(demo) bob")
      defer { bob.stop() }
      for process in [ann, bob] {
        let header = try await process.waitForFrame("connected") { $0.contains("● authenticated") }
        #expect(header.contains("using the server at http://127.0.0.1:\(port)"))
      }
      try await body(ann, bob)
    }
  }

  @Test("todos: an add, toggle, clear and rm typed in one terminal show in the other")
  func todos() async throws {
    try await withTwo("todos") { ann, bob in
      ann.type("add buy milk\n")
      try await bob.waitForFrame("ann's todo") { $0.contains("1. [ ] buy milk") && $0.contains("1 remaining of 1") }

      bob.type("toggle 1\nadd walk the dog\n")
      try await ann.waitForFrame("bob's toggle and todo") {
        $0.contains("1. [x] buy milk") && $0.contains("2. [ ] walk the dog") && $0.contains("1 remaining of 2")
      }

      ann.type("clear\n")
      try await bob.waitForFrame("the done todo cleared") {
        !$0.contains("buy milk") && $0.contains("1. [ ] walk the dog") && $0.contains("1 remaining of 1")
      }

      bob.type("rm 1\n")
      try await ann.waitForFrame("the list emptied") { $0.contains("0 remaining of 0") && $0.contains("(none yet") }

      ann.type("toggle 9\n")
      try await ann.waitForFrame("a bad number explained") { $0.contains("no todo “9”") }
      ann.type("?")
      try await ann.waitForFrame("the help") { $0.contains("add <title>") && $0.contains("rm <n>") }

      ann.type("q\n")
      try await ann.waitForFrame("q does not quit, and says what does") { Self.showsQuitHint($0) }
      ann.type("\u{03}")
      #expect(try await ann.waitForExit() == 0)
    }
  }

  @Test("chat: typing shows on the other screen before Enter; Enter sends; /react reaches the other")
  func chat() async throws {
    try await withTwo("chat", extra: ["--room", "room-\(UUID().uuidString.prefix(8))"]) { ann, bob in
      // The avatar stack: you first, then the peers.
      try await ann.waitForFrame("bob in ann's avatar stack") { $0.contains("(A) ann (you)  (B) bob") }
      try await bob.waitForFrame("ann in bob's avatar stack") { $0.contains("(B) bob (you)  (A) ann") }

      let mark = bob.frames.count
      ann.type("hel")
      try await bob.waitForFrame("ann typing", since: mark) { $0.contains("ann is typing…") }
      try await ann.waitForFrame("ann's draft") { $0.hasSuffix("> hel") }

      ann.type("lo\n")
      try await bob.waitForFrame("ann's message, no typing line") {
        $0.contains("ann: hello") && !$0.contains("is typing")
      }
      try await ann.waitForFrame("ann's own message") { $0.contains("ann: hello") && $0.hasSuffix("> ") }

      ann.type("/react 🔥\n")
      try await bob.waitForFrame("ann's reaction") { $0.contains("ann reacted 🔥") }
      try await ann.waitForFrame("ann's reaction noted") { $0.contains("you reacted 🔥") }

      bob.type("hi ann\n")
      try await ann.waitForFrame("bob's reply after ann's message") {
        guard let hello = $0.range(of: "ann: hello"), let reply = $0.range(of: "bob: hi ann") else { return false }
        return hello.upperBound <= reply.lowerBound
      }

      bob.type("?")
      try await bob.waitForFrame("the help") { $0.contains("/react <emoji>") }

      bob.type("q\n")
      try await bob.waitForFrame("q is not sent") { $0.contains("Ctrl-C quits (“q” was not sent)") }
      bob.type("\u{03}")
      #expect(try await bob.waitForExit() == 0)
      #expect(!ann.frames.contains { $0.contains("bob: q") }, "a q meant to quit reached everyone")
      try await ann.waitForFrame("bob gone from ann's avatar stack") {
        $0.contains("(A) ann (you)") && !$0.contains("(B) bob")
      }
    }
  }

  @Test("chat: the typing line goes away a few seconds after the last keystroke; the next one brings it back")
  func typingGoesIdle() async throws {
    try await withTwo("chat", extra: ["--room", "room-\(UUID().uuidString.prefix(8))"]) { ann, bob in
      try await bob.waitForFrame("ann in bob's avatar stack") { $0.contains("(A) ann") }
      let mark = bob.frames.count
      ann.type("wait")
      try await bob.waitForFrame("ann typing", since: mark) { $0.contains("ann is typing…") }
      try await bob.waitForFrame("ann idle") { !$0.contains("is typing") }
      try await ann.waitForFrame("ann's draft kept") { $0.hasSuffix("> wait") }
      ann.type("!")
      try await bob.waitForFrame("ann typing again") { $0.contains("ann is typing…") }
      ann.type("\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}")  // Backspace to an empty line: not typing
      try await ann.waitForFrame("ann's draft empty") { $0.hasSuffix("> ") }
      try await bob.waitForFrame("ann not typing with an empty draft") { !$0.contains("is typing") }
    }
  }

  @Test("cursors: arrow keys move your cursor on the other screen, drawn with your initial")
  func cursors() async throws {
    try await withTwo("cursors", extra: ["--room", "canvas-\(UUID().uuidString.prefix(8))"]) { ann, bob in
      try await bob.waitForFrame("ann's cursor") { $0.contains("A ann at 0,0") }
      ann.type("\u{1B}[C\u{1B}[C\u{1B}[C\u{1B}[B")  // right ×3, down
      let frame = try await bob.waitForFrame("ann's cursor moved") { $0.contains("A ann at 3,1") }
      #expect(square(in: frame, x: 3, y: 1, cellWidth: 1) == "A")
      #expect(square(in: frame, x: 0, y: 0, cellWidth: 1) == "@")
      try await ann.waitForFrame("ann's own cursor") {
        $0.contains("@ ann (you) at 3,1") && square(in: $0, x: 3, y: 1, cellWidth: 1) == "@"
      }
      ann.type("\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[A\u{1B}[A")  // left ×4, up ×2: stops at the edge
      try await bob.waitForFrame("ann's cursor at the corner") { $0.contains("A ann at 0,0") }
      ann.type("q")
      try await ann.waitForFrame("q says what quits") { Self.showsQuitHint($0) }
      ann.type("\u{03}")
      #expect(try await ann.waitForExit() == 0)
      try await bob.waitForFrame("ann gone") { !$0.contains("ann at") && $0.contains("nobody else here") }
    }
  }

  @Test("tiles: a square painted in one terminal shows in the other, with both selections")
  func tiles() async throws {
    try await withTwo("tiles", extra: ["--room", "board-\(UUID().uuidString.prefix(8))"]) { ann, bob in
      ann.type("\u{1B}[C\u{1B}[B ")  // right, down, paint
      let painted = try await bob.waitForFrame("ann's square") {
        $0.contains("ann (A) at 1,1") && $0.contains("1 square painted")
      }
      #expect(square(in: painted, x: 1, y: 1, cellWidth: 3) == "(A)")  // ann's selection on ann's square
      #expect(square(in: painted, x: 0, y: 0, cellWidth: 3) == "[.]")  // bob's own selection

      bob.type(" \u{1B}[C\u{1B}[C")  // paint (0,0), then move away
      let both = try await ann.waitForFrame("bob's square and selection") {
        $0.contains("bob (B) at 2,0") && $0.contains("2 squares painted")
      }
      #expect(square(in: both, x: 0, y: 0, cellWidth: 3) == " B ")
      #expect(square(in: both, x: 2, y: 0, cellWidth: 3) == "(.)")
      #expect(square(in: both, x: 1, y: 1, cellWidth: 3) == "[A]")

      ann.type(" ")  // ann's own color again: cleared
      try await bob.waitForFrame("ann's square cleared") {
        $0.contains("1 square painted") && square(in: $0, x: 1, y: 1, cellWidth: 3) == "(.)"
      }
    }
  }

  @Test("tiles: when the terminal hosting the server quits, the joiner stops showing its player")
  func hostQuits() async throws {
    let hosting = Hosting()
    defer { hosting.remove() }
    let options = hosting.options
    let ann = try DemoProcess("tiles", options + ["--name", "ann"], label: "tiles ann (hosts)")
    defer { ann.stop() }
    try await ann.waitForFrame("ann connected") { $0.contains("● authenticated") }
    let bob = try DemoProcess("tiles", options + ["--name", "bob"], label: "tiles bob (joins)")
    defer { bob.stop() }
    try await bob.waitForFrame("ann's player") { $0.contains("ann (A) at 0,0") }
    ann.type("\u{03}")
    #expect(try await ann.waitForExit() == 0)
    // No server is left to say that ann left: the room is not connected, so nobody is shown.
    try await bob.waitForFrame("ann gone") { !$0.contains("ann (A) at") && !$0.contains("● authenticated") }
  }

  @Test("Without --server the first terminal hosts the server and the second joins it")
  func hostAndJoin() async throws {
    let hosted = Hosting()
    defer { hosted.remove() }
    let (port, options) = (hosted.port, hosted.options)

    let ann = try DemoProcess("todos", options + ["--name", "ann"], label: "todos ann (hosts)")
    defer { ann.stop() }
    let hosting = try await ann.waitForFrame("ann connected") { $0.contains("● authenticated") }
    #expect(hosting.contains("this terminal hosts the server on port \(port)"))

    let bob = try DemoProcess("todos", options + ["--name", "bob"], label: "todos bob (joins)")
    defer { bob.stop() }
    let joined = try await bob.waitForFrame("bob connected") { $0.contains("● authenticated") }
    #expect(joined.contains("joined the server on port \(port)"))

    ann.type("add hello from ann\n")
    try await bob.waitForFrame("ann's todo") { $0.contains("1. [ ] hello from ann") }
    bob.type("toggle 1\n")
    try await ann.waitForFrame("bob's toggle") { $0.contains("1. [x] hello from ann") && $0.contains("0 pending writes") }
    #expect(FileManager.default.fileExists(atPath: hosted.dataFile))
  }

  @Test("The end of input quits after the writes are sent; the embedded server's data survives for the next run")
  func endOfInputAndRestart() async throws {
    let hosting = Hosting()
    defer { hosting.remove() }
    let options = hosting.options

    let first = try DemoProcess("todos", options + ["--name", "ann"], label: "todos, first run")
    defer { first.stop() }
    try await first.waitForFrame("connected") { $0.contains("● authenticated") }
    first.type("add still here\ntoggle 1\nadd and this\n")
    first.closeInput()
    #expect(try await first.waitForExit() == 0)

    let second = try DemoProcess("todos", options + ["--name", "bob"], label: "todos, second run")
    defer { second.stop() }
    let frame = try await second.waitForFrame("the first run's todos") { $0.contains("2. [ ] and this") }
    #expect(frame.contains("1. [x] still here") && frame.contains("1 remaining of 2"))
    #expect(frame.contains("this terminal hosts the server"))
    second.type("\u{03}")  // Ctrl-C
    #expect(try await second.waitForExit() == 0)
  }
}

/// The square (`x`, `y`) of the board in a plain-text `frame` (rows between `+---+` lines).
func square(in frame: String, x: Int, y: Int, cellWidth: Int) -> String? {
  let lines = frame.split(separator: "\n", omittingEmptySubsequences: false)
  guard let top = lines.firstIndex(where: { $0.hasPrefix("+-") }), lines.indices.contains(top + 1 + y) else { return nil }
  let row = Array(lines[top + 1 + y].dropFirst())
  let start = x * cellWidth
  guard row.count >= start + cellWidth else { return nil }
  return String(row[start..<start + cellWidth])
}

@Suite("Terminal input and options")
struct TerminalInputTests {
  func decode(_ bytes: [UInt8]) -> [Key] {
    var decoder = KeyDecoder()
    return bytes.flatMap { decoder.feed($0) } + decoder.finish()
  }

  @Test("Bytes become keys: text, UTF-8, Enter, Backspace, arrows, Ctrl-C, Ctrl-D")
  func keys() {
    #expect(decode(Array("hi\n".utf8)) == [.text("h"), .text("i"), .enter])
    #expect(decode(Array("🔥é".utf8)) == [.text("🔥"), .text("é")])
    #expect(decode([0x0D, 0x0A, 0x0D]) == [.enter, .enter])  // \r\n is one Enter
    #expect(decode([0x7F, 0x08]) == [.backspace, .backspace])
    #expect(decode(Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA".utf8)) == [.up, .down, .right, .left, .up])
    #expect(decode(Array("\u{1B}[1;5C".utf8)) == [.right])
    #expect(decode([0x1B]) == [.escape])
    #expect(decode([0x1B, UInt8(ascii: "x")]) == [.escape, .text("x")])
    #expect(decode([0x03, 0x04]) == [.interrupt, .endOfInput])
  }

  @Test("Options")
  func options() throws {
    let defaults = try #require(try DemoOptions.parse([], command: "todos"))
    #expect(defaults.server == nil && defaults.port == 8888 && defaults.data == ".instant/demos.sqlite")
    #expect(defaults.name.hasPrefix("user-") && defaults.name.count == 9)
    let given = try #require(
      try DemoOptions.parse(["--server", "http://h:1", "--name=ann", "--room", "r", "--port", "9000", "--color", "#00FF00"], command: "chat"))
    #expect(given.server == URL(string: "http://h:1") && given.name == "ann" && given.room == "r" && given.port == 9000)
    #expect(given.resolvedColor == "#00FF00")
    #expect(try DemoOptions.parse(["--help"], command: "todos") == nil)
    #expect(throws: DemoError.self) { try DemoOptions.parse(["--port", "x"], command: "todos") }
    #expect(throws: DemoError.self) { try DemoOptions.parse(["--bogus", "1"], command: "todos") }
    #expect(throws: DemoError.self) { try DemoOptions.parse(["--room", "r"], command: "todos") }
  }

  @Test("--help prints the usage and exits 0; a bad option says what is wrong and exits 1")
  func helpAndBadOptions() async throws {
    let help = try DemoProcess("chat", ["--help"], label: "chat --help")
    defer { help.stop() }
    #expect(try await help.waitForExit() == 0)
    try await help.waitForOutput("the usage") { $0.contains("Usage: swift run chat") && $0.contains("--server URL") }

    let bad = try DemoProcess("tiles", ["--port", "x"], label: "tiles --port x")
    defer { bad.stop() }
    #expect(try await bad.waitForExit() == 1)
    try await bad.waitForOutput("the problem") { $0.contains("tiles: --port: not a port: x") }
  }
}
