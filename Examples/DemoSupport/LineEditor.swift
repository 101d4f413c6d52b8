/// The input line at the bottom of `todos` and `chat`: text typed, Backspace, Escape to clear,
/// Enter to submit.
public struct LineEditor: Sendable {
  /// What is typed so far.
  public private(set) var text = ""

  public enum Outcome: Equatable, Sendable {
    /// The key does nothing to the line.
    case unchanged
    /// The text changed.
    case edited
    /// Enter: the line as typed (the editor is empty again).
    case submitted(String)
  }

  public init() {}

  public mutating func handle(_ key: Key) -> Outcome {
    switch key {
    case .text(let typed):
      text += typed
      return .edited
    case .backspace where !text.isEmpty:
      text.removeLast()
      return .edited
    case .escape where !text.isEmpty:
      text = ""
      return .edited
    case .enter:
      defer { text = "" }
      return .submitted(text)
    default:
      return .unchanged
    }
  }
}
