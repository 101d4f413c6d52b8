/// One terminal demo's screen: what it shows under the header and what the keys do. The
/// executables (`todos`, `chat`, `cursors`, `tiles`) hand one to ``DemoSession/run(_:)``; the
/// tests drive the same ones with keys of their own.
@MainActor
public protocol TerminalDemo: AnyObject {
  /// The help lines, shown under the header while ``DemoSession/showingHelp``.
  var help: [String] { get }
  /// The lines under the header; read under Observation, so the screen redraws when they change.
  func body() -> [String]
  /// Reacts to a key. No key of a demo's own quits it: Ctrl-C (and the end of input) quits every
  /// demo, handled by ``DemoSession``.
  func handle(_ key: Key) async
  /// Resumes once every edit made so far is queued (called when the demo quits).
  func save() async
}

extension TerminalDemo {
  public func save() async {}
}

/// What a demo says when a key that quits other programs (`q`, `/quit`…) is pressed.
public let quitHint = "Ctrl-C quits"
