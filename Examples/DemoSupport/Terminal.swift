import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal: raw mode for stdin when it is a TTY, and frames on stdout — redrawn
/// in place with ANSI on a TTY, printed one after another as plain text otherwise (a pipe, a
/// test), each followed by ``frameEnd``.
public enum Terminal {
  /// The line after every plain-text frame.
  public static let frameEnd = "-- end of frame --"

  /// Whether stdin is a terminal (raw mode applies).
  public static let inputIsTTY = isatty(0) == 1
  /// Whether stdout is a terminal (ANSI redraws and colors apply).
  public static let outputIsTTY = isatty(1) == 1

  /// Stdin without line buffering or echo, and Ctrl-C as a byte rather than a signal; the
  /// terminal comes back as it was on ``restore()``, at exit, and on SIGINT/SIGTERM/SIGHUP.
  /// Does nothing when stdin is not a TTY. On a TTY stdout, switches to the alternate screen.
  public static func enterRawMode() {
    if inputIsTTY, tcgetattr(0, &savedAttributes) == 0 {
      var raw = savedAttributes
      raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
      withUnsafeMutableBytes(of: &raw.c_cc) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
      }
      tcsetattr(0, TCSAFLUSH, &raw)
      rawModeOn = true
    }
    if outputIsTTY {
      // The alternate screen, without line wrap (a line wider than the terminal is cut at its
      // edge rather than pushing the frame down).
      writeOut("\u{1B}[?1049h\u{1B}[?7l")
      alternateScreenOn = true
    }
    atexit { Terminal.restore() }
    for sig in [SIGINT, SIGTERM, SIGHUP] {
      signal(sig) { signal in
        Terminal.restore()
        _exit(128 + signal)
      }
    }
  }

  /// Puts the terminal back as it was before ``enterRawMode()`` (safe to call more than once,
  /// and from a signal handler).
  public static func restore() {
    if alternateScreenOn {
      alternateScreenOn = false
      writeOut("\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
    }
    if rawModeOn {
      rawModeOn = false
      tcsetattr(0, TCSAFLUSH, &savedAttributes)
    }
  }

  /// Shows `lines` as the whole screen: on a TTY clears and redraws (the cursor left at the end
  /// of the last line, where typing goes); otherwise prints them plain, then ``frameEnd``.
  public static func draw(_ lines: [String]) {
    if outputIsTTY {
      // Home, each line over the old one (clearing its rest), then clear below: no flicker.
      writeOut("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
    } else {
      writeOut((lines + [frameEnd]).joined(separator: "\n") + "\n")
    }
  }

  /// The terminal's rows and columns (`nil` when stdout is not a terminal).
  public static var size: (rows: Int, columns: Int)? {
    guard outputIsTTY else { return nil }
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
    return (Int(size.ws_row), Int(size.ws_col))
  }

  /// `lines` made to fit `rows` (the terminal's, on a TTY): when there are more, lines from the
  /// middle give way to one saying how many are hidden, so the header and status at the top and
  /// the input line at the bottom stay in view.
  public static func fit(_ lines: [String], rows: Int? = size?.rows, keepingLast tail: Int = 4) -> [String] {
    guard let rows, lines.count > rows, rows > tail + 2 else { return lines }
    let head = rows - tail - 1
    let hidden = lines.count - head - tail
    return Array(lines.prefix(head)) + [dim("… \(hidden) more lines (a taller window shows them)")] + lines.suffix(tail)
  }

  /// Writes `text` to stdout unbuffered (nothing to flush).
  public static func writeOut(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// `text` in the color `hex` (`#RRGGBB`) on a TTY; `text` unchanged otherwise.
  public static func colored(_ text: String, _ hex: String, background: Bool = false) -> String {
    guard outputIsTTY, let (r, g, b) = rgb(hex) else { return text }
    return "\u{1B}[\(background ? 48 : 38);2;\(r);\(g);\(b)m\(text)\u{1B}[0m"
  }

  /// `text` bold on a TTY; unchanged otherwise.
  public static func bold(_ text: String) -> String {
    outputIsTTY ? "\u{1B}[1m\(text)\u{1B}[0m" : text
  }

  /// `text` dimmed on a TTY; unchanged otherwise.
  public static func dim(_ text: String) -> String {
    outputIsTTY ? "\u{1B}[2m\(text)\u{1B}[0m" : text
  }

  static func rgb(_ hex: String) -> (Int, Int, Int)? {
    let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
    guard digits.count == 6, let value = Int(digits, radix: 16) else { return nil }
    return ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
  }

  // Touched from signal handlers, hence plain globals.
  nonisolated(unsafe) private static var savedAttributes = termios()
  nonisolated(unsafe) private static var rawModeOn = false
  nonisolated(unsafe) private static var alternateScreenOn = false
}
