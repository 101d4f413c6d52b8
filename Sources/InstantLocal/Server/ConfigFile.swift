import Foundation

/// `instant-local serve --config FILE`: `serve`'s options in a file, one `key = value` a line.
///
/// A key is an option's long name without its dashes; a value is a string in double quotes, a
/// whole number, `true` or `false`, or a list of strings in brackets for an option given several
/// times (`trusted-proxy = ["127.0.0.1", "::1"]`). `#` starts a comment. The file becomes
/// arguments placed before the command line's, so an option on the command line wins (a list adds
/// to the file's). Secrets are never values here: the `*-file` keys name files that hold them.
/// Every mistake stops the server before it starts, with the file, line and key.
package struct ConfigFile {
  /// What a key's value must be.
  package enum Kind {
    case string
    case integer
    case flag
    case list
  }

  /// `serve`'s options by key. `ConfigFileTests` checks it against `serve --help`, so an option added
  /// without a key here fails there. (In the library, at package scope, so the tests read it
  /// in-process rather than by starting the executable for each key.)
  package static let keys: [String: Kind] = [
    "host": .string, "port": .integer, "data": .string, "memory": .flag, "log-level": .string, "log-format": .string,
    "max-message-bytes": .integer, "max-queued-bytes": .integer, "ping-interval": .integer, "rules": .string, "strict-apps": .flag,
    "max-upload-bytes": .integer, "public-url": .string, "unverified-id-tokens": .flag,
    "smtp-host": .string, "smtp-port": .integer, "smtp-security": .string, "smtp-user": .string,
    "smtp-password-file": .string, "smtp-ca-file": .string, "mail-from": .string, "metrics-token-file": .string,
    "magic-code-expiry-minutes": .integer, "magic-codes-per-hour": .integer,
    "max-connections": .integer, "max-connections-per-ip": .integer,
    "sign-ins-per-ip-per-minute": .integer, "sign-ins-per-app-per-minute": .integer,
    "transactions-per-ip-per-second": .integer, "transactions-per-app-per-second": .integer,
    "trusted-proxy": .list,
  ]

  /// Keys that would put a secret in the file, and where it goes instead.
  package static let secrets: [String: String] = [
    "smtp-password": "smtp-password-file (or the environment variable INSTANT_LOCAL_SMTP_PASSWORD)",
    "metrics-token": "metrics-token-file (or the environment variable INSTANT_LOCAL_METRICS_TOKEN)",
  ]

  /// A mistake in the file.
  package struct Mistake: Error, CustomStringConvertible {
    package var description: String
    init(description: String) { self.description = description }
  }

  /// `arguments` (after the program's name) with the file `--config` names read into them; the
  /// same arguments when there is none or the command is not `serve`.
  package static func expand(_ arguments: [String]) throws -> [String] {
    let commands: Set<String> = ["apps", "backup", "restore", "help"]
    if let first = arguments.first, commands.contains(first) { return arguments }
    var path: String?
    for (index, argument) in arguments.enumerated() {
      if argument == "--config", index + 1 < arguments.count { path = arguments[index + 1] }
      if argument.hasPrefix("--config=") { path = String(argument.dropFirst("--config=".count)) }
    }
    guard let path else { return arguments }
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
      throw Mistake(description: "--config: cannot read \(path)")
    }
    let fileArguments = try self.arguments(text, path: path)
    return arguments.first == "serve" ? ["serve"] + fileArguments + arguments.dropFirst() : fileArguments + arguments
  }

  /// The arguments the file's text says, checked line by line.
  package static func arguments(_ text: String, path: String) throws -> [String] {
    var arguments: [String] = []
    var seen: [String: Int] = [:]
    for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = offset + 1
      func mistake(_ message: String) -> Mistake { Mistake(description: "\(path):\(line): \(message)") }
      let content = stripComment(raw).trimmingCharacters(in: .whitespaces)
      guard !content.isEmpty else { continue }
      guard let equals = content.firstIndex(of: "=") else {
        throw mistake("expected `key = value`, got \(content)")
      }
      let key = content[..<equals].trimmingCharacters(in: .whitespaces)
      let value = content[content.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      if let instead = secrets[key] {
        throw mistake("\(key): secrets do not go in the configuration file; use \(instead)")
      }
      if key == "config" { throw mistake("config: a configuration file cannot name another") }
      guard let kind = keys[key] else {
        let near = keys.keys.min { distance($0, key) < distance($1, key) }
        let hint = near.flatMap { distance($0, key) <= 3 ? " (did you mean \($0)?)" : nil } ?? ""
        throw mistake("unknown key \(key)\(hint); the keys are instant-local serve's options without their dashes")
      }
      if let earlier = seen[key] { throw mistake("\(key) is set twice (first on line \(earlier))") }
      seen[key] = line
      switch kind {
      case .string:
        guard let string = quoted(value) else { throw mistake("\(key) takes a string in double quotes, got \(value)") }
        arguments += ["--\(key)", string]
      case .integer:
        guard let number = Int(value) else { throw mistake("\(key) takes a whole number, got \(value)") }
        arguments += ["--\(key)", String(number)]
      case .flag:
        switch value {
        case "true": arguments.append("--\(key)")
        case "false": break
        default: throw mistake("\(key) takes true or false, got \(value)")
        }
      case .list:
        guard let items = list(value) else {
          throw mistake("\(key) takes a list of strings such as [\"127.0.0.1\"], got \(value)")
        }
        for item in items { arguments += ["--\(key)", item] }
      }
    }
    return arguments
  }

  /// The line without a `#` comment (a `#` inside double quotes is kept).
  static func stripComment(_ line: Substring) -> Substring {
    var inString = false
    var escaped = false
    for index in line.indices {
      let character = line[index]
      if escaped {
        escaped = false
      } else if character == "\\" && inString {
        escaped = true
      } else if character == "\"" {
        inString.toggle()
      } else if character == "#" && !inString {
        return line[..<index]
      }
    }
    return line
  }

  /// The string a `"…"` literal holds (`\"` and `\\` escaped), or nil.
  static func quoted(_ text: String) -> String? {
    guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
    var out = ""
    var escaped = false
    for character in text.dropFirst().dropLast() {
      if escaped {
        out.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        return nil
      } else {
        out.append(character)
      }
    }
    return escaped ? nil : out
  }

  /// The strings of a `["a", "b"]` list, or nil.
  static func list(_ text: String) -> [String]? {
    guard text.first == "[", text.last == "]" else { return nil }
    let inner = text.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
    guard !inner.isEmpty else { return [] }
    var items: [String] = []
    for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
      guard let item = quoted(part.trimmingCharacters(in: .whitespaces)) else { return nil }
      items.append(item)
    }
    return items
  }

  /// The edit distance between two keys, for "did you mean".
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return a.isEmpty ? b.count : row[b.count]
  }
}
