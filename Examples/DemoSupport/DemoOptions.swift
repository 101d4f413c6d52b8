public import Foundation

/// The options every terminal demo takes.
public struct DemoOptions: Sendable, Equatable {
  /// An InstantDB-compatible server to use instead of the embedded one.
  public var server: URL?
  public var appID = DemoServer.appID
  /// Your name for the others (presence, message authors).
  public var name = "user-" + String((0..<4).map { _ in "abcdefghijkmnpqrstuvwxyz23456789".randomElement()! })
  /// Your color (`#RRGGBB`); derived from the name unless given.
  public var color: String?
  /// The embedded server's port (or the port of the one to join).
  public var port = DemoServer.port
  /// The embedded server's data file.
  public var data = DemoServer.dataFile
  /// The room (chat, cursors) or board (tiles) to join; each demo has its own default.
  public var room: String?

  public init() {}

  /// What `--room` picks in `command`, `nil` for a demo without rooms (todos).
  public static func room(in command: String) -> String? {
    switch command {
    case "chat": "the chat room (default lobby)"
    case "cursors": "the canvas (default canvas)"
    case "tiles": "the board (default main)"
    default: nil
    }
  }

  /// The usage text for `command`.
  public static func usage(_ command: String, _ summary: String) -> String {
    let room = room(in: command)
    return """
      \(summary)

      Usage: swift run \(command) [--name NAME]\(room == nil ? "" : " [--room ROOM]") [--server URL | --port PORT --data FILE]

      Without --server, the demo joins the instant-local already listening on --port (another
      terminal running a demo, or `swift run instant-local`), or starts one there itself.

        --server URL   an InstantDB-compatible server (http(s):// or ws(s)://); nothing embedded
        --app-id UUID  the app (default \(DemoServer.appID))
        --name NAME    your name for the others (default user-<4 random characters>)
        --color HEX    your color, #RRGGBB (default: one picked from the name)
        --port PORT    the embedded server's port (default \(DemoServer.port))
        --data FILE    the embedded server's data (default \(DemoServer.dataFile))
      \(room.map { "  --room ROOM    \($0)\n" } ?? "")  -h, --help     this text
      """
  }

  /// Parses `arguments` (without the program name) of `command`. Throws ``DemoError`` for an
  /// unknown option or argument or a bad value; returns `nil` for `--help`.
  public static func parse(_ arguments: [String], command: String) throws -> DemoOptions? {
    var options = DemoOptions()
    var known = ["--server", "--app-id", "--name", "--color", "--port", "--data"]
    if room(in: command) != nil { known.append("--room") }
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      var (flag, inline) = (argument, String?.none)
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        (flag, inline) = (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
      }
      if flag == "-h" || flag == "--help" { return nil }
      guard flag.hasPrefix("-") else { throw DemoError("unknown argument “\(argument)” (\(command) takes only options: see --help)") }
      guard known.contains(flag) else { throw DemoError("unknown option \(flag) (see --help)") }
      guard let value = inline ?? rest.popFirst() else { throw DemoError("\(flag) needs a value") }
      switch flag {
      case "--server":
        guard let url = URL(string: value) else { throw DemoError("--server: not a URL: \(value)") }
        options.server = url
      case "--app-id":
        guard UUID(uuidString: value) != nil else {
          throw DemoError("--app-id must be an app's id, a UUID like \(DemoServer.appID) (got “\(value)”)")
        }
        options.appID = value.lowercased()
      case "--name":
        guard !value.isEmpty else { throw DemoError("--name must not be empty") }
        options.name = value
      case "--color":
        guard Terminal.rgb(value) != nil else { throw DemoError("--color wants #RRGGBB, got \(value)") }
        options.color = value.hasPrefix("#") ? value : "#" + value
      case "--port":
        guard let port = Int(value), (1...65535).contains(port) else { throw DemoError("--port: not a port: \(value)") }
        options.port = port
      case "--data": options.data = value
      default: options.room = value
      }
    }
    return options
  }

  /// Your color: ``color``, or one of a palette picked by a hash of the name.
  public var resolvedColor: String {
    if let color { return color }
    let palette = ["#E5484D", "#F76B15", "#FFC53D", "#46A758", "#12A594", "#0090FF", "#8E4EC6", "#D6409F"]
    let hash = name.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
    return palette[Int(hash % UInt32(palette.count))]
  }
}
