/// A part of a frame: a JSON value, or JSON text serialised before the frame was built.
///
/// The server sends the same query result, attr table or presence edits to many sessions and
/// serialises each once (the `raw` case); a frame that carries them is then written around the
/// text instead of re-serialising a large value per session. A decoded frame always holds `json`.
public enum WireFragment: Sendable, Equatable {
  case json(JSON)
  /// Text that is one complete JSON value. Not checked: the server builds it from `JSON` values.
  case raw(String)

  /// The value, parsing raw text (which the server's own code produced, so it parses).
  public var value: JSON {
    switch self {
    case let .json(value): value
    case let .raw(text): (try? JSON.parse(text)) ?? .null
    }
  }

  func write(to out: inout String) {
    switch self {
    case let .json(value): value.write(to: &out, style: .compact, indent: 0)
    case let .raw(text): out += text
    }
  }
}

/// Writes a frame's members in the order given, as `JSON.serialized()` writes an object.
struct FrameWriter {
  private(set) var text = "{"

  mutating func member(_ key: String, _ value: WireFragment) {
    member(key) { value.write(to: &$0) }
  }

  /// A member whose value `body` writes into the frame's text directly (no intermediate copy of
  /// a large value).
  mutating func member(_ key: String, writing body: (inout String) -> Void) {
    if text.utf8.count > 1 { text += "," }
    JSON.writeString(key, to: &text)
    text += ":"
    body(&text)
  }

  mutating func member(_ key: String, _ value: JSON) { member(key, .json(value)) }

  mutating func member(_ key: String, _ value: String) { member(key, .json(.string(value))) }

  mutating func member(_ key: String, _ value: Int) {
    member(key) { $0 += String(value) }
  }

  consuming func finish() -> String { text + "}" }
}
