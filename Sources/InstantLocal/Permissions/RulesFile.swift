import Foundation
import InstantCore
import InstantPermissions
import InstantSchema
import Logging

/// An `instant.perms.ts` (or `.json`) file, read into rules with every problem reported at
/// `file:line:column`, and watched: when it changes, the new rules replace the old; when the new
/// text has an error, the last good rules stay and the error is logged.
struct RulesFile: Sendable {
  let path: String

  /// The rules in the file, or every problem as `file:line:column: error: …` lines.
  func load() -> Result<PermissionRules, RulesFileError> {
    let read: InstantPermsReader.Rules
    do {
      read = try InstantPermsReader.read(fileAt: path)
    } catch {
      return .failure(RulesFileError(lines: [error.description]))
    }
    do {
      return .success(try PermissionRules(read.json))
    } catch {
      return .failure(RulesFileError(lines: error.problems.map { Self.line($0, path: path, locations: read.locations) }))
    }
  }

  /// One problem as a compiler would print it: at the rule's text in the file, moved to the
  /// place in the rule the parser names when it names one.
  static func line(_ problem: CompiledRule.Problem, path: String, locations: [[String]: SourceLocation]) -> String {
    var location = locations[problem.path] ?? SourceLocation(file: path, line: 1, column: 1)
    if let line = problem.line, let column = problem.column {
      // The string's location is its opening quote; the rule's text starts one column later.
      if line == 1 { location.column += column } else { location.line += line - 1; location.column = column }
    }
    let place = problem.path.isEmpty ? "" : problem.path.joined(separator: ".") + ": "
    return "\(location): error: \(place)\(problem.message)"
  }

  /// The file's modification time and size, to notice an edit (`nil` while it is missing).
  struct Stamp: Equatable, Sendable {
    var modified: Date?
    var size: Int?
  }

  func stamp() -> Stamp? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
    return Stamp(modified: attributes[.modificationDate] as? Date, size: (attributes[.size] as? NSNumber)?.intValue)
  }

  /// Polls the file every `interval` until cancelled, calling `apply` with each new good version.
  func watch(
    every interval: Duration, from stamp: Stamp?, clock: ServerClock, logger: Logger,
    apply: @Sendable (PermissionRules) async -> Void
  )
    async
  {
    var last = stamp
    while !Task.isCancelled {
      try? await clock.sleep(for: interval)
      let now = self.stamp()
      guard now != last else { continue }
      last = now
      switch load() {
      case let .success(rules):
        logger.info("permission rules reloaded from \(path)")
        await apply(rules)
      case let .failure(error):
        logger.error("\(error.description)\nthe previous rules stay in force until \(path) is fixed")
      }
    }
  }
}

/// Why a rules file cannot be used: one `file:line:column: error: …` line per problem.
public struct RulesFileError: Error, Sendable, CustomStringConvertible {
  public var lines: [String]
  public var description: String { lines.joined(separator: "\n") }
}
