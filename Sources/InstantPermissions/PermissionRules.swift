import CEL
import Foundation
package import InstantCore
import OrderedCollections

/// An app's rules, checked and compiled once: what instant-local enforces for every session
/// that is not an admin. Built from the JSON of `instant.perms.ts`'s default export.
///
/// Reading rules refuses what the reference refuses when rules are pushed (a rule that does not
/// compile, a bind cycle, rules for a reserved namespace, `$users` deletes, a field rule on
/// `id`), with the reference's messages and `in` paths (``RulesError``).
package struct PermissionRules: Sendable {
  package let document: RulesDocument
  private let programs = ProgramCache()

  /// Namespaces whose view rules read links (`ref`): a change anywhere may change what they show.
  package private(set) var viewReadsLinks = false

  package init(_ json: JSON) throws(RulesError) {
    guard case let .object(top) = json else {
      throw RulesError(input: json, problems: [.init(message: "The rules must be an object of namespaces.", path: [])])
    }
    document = RulesDocument(json)
    var problems: [CompiledRule.Problem] = []
    func note(_ problem: CompiledRule.Problem) {
      if !problems.contains(problem) { problems.append(problem) }
    }
    let allowedSystem: Set<String> = ["$users", "$files", "$default", "$streams"]
    for (etype, block) in top {
      if etype == "$rateLimits" {
        note(.init(message: "$rateLimits is not supported by instant-local.", path: [etype]))
        continue
      }
      if etype.hasPrefix("$"), !allowedSystem.contains(etype) {
        for action in RulesDocument.Action.allCases {
          note(.init(message: "The \(etype) namespace is a reserved internal namespace that does not yet support rules.", path: [etype, "allow", action.rawValue]))
        }
        continue
      }
      guard case .object = block else {
        note(.init(message: "The rules for \(etype) must be an object.", path: [etype]))
        continue
      }
      if etype == "$users", let delete = block["allow"]?["delete"], delete != "false" {
        note(.init(message: "The $users namespace doesn't support permissions for delete. Set `$users.allow.delete` to `\"false\"`.", path: ["$users", "allow", "delete"]))
      }
      for problem in Self.bindProblems(etype, block["bind"]) { note(problem) }
      for action in RulesDocument.Action.allCases {
        guard let rule = document.rule(etype, action) else { continue }
        if case let .failure(problem) = compile(rule, action == .view || action == .delete ? .view : .write) { note(problem) }
      }
      for label in document.fieldLabels(etype) {
        if label == "id" {
          note(.init(message: "You cannot set field rules for `id`. Use \(etype) -> allow -> view instead", path: [etype, "fields"]))
          continue
        }
        if let rule = document.fieldRule(etype, label: label), case let .failure(problem) = compile(rule, .view) { note(problem) }
      }
      // Link rules are compiled now and reported when a transaction meets them, as the reference
      // does not check them when rules are pushed.
      for kind in ["link", "unlink"] {
        for label in block["allow"]?[kind]?.objectValue?.keys ?? [] {
          if let rule = document.linkRule(etype, label: label, unlink: kind == "unlink") {
            _ = compile(rule, kind == "link" ? .link : .unlink)
          }
        }
      }
    }
    for etype in ["$users", "$files"] {
      for action in RulesDocument.Action.allCases {
        if let rule = document.rule(etype, action) { _ = compile(rule, action == .view || action == .delete ? .view : .write) }
      }
    }
    if let signup = document.signupRule { _ = compile(signup, .write) }
    if !problems.isEmpty { throw RulesError(input: json, problems: problems) }
  }

  /// Rules sent by a client (a push, a debug request's `rules-override`), refused with the
  /// reference's `validation-failed` for `rule` when they cannot be used.
  package init(validating json: JSON) throws(ServerError) {
    do {
      try self.init(json)
    } catch {
      throw error.serverError
    }
  }

  private mutating func compile(_ rule: RulesDocument.Rule, _ variables: CompiledRule.Variables) -> Result<CompiledRule, CompiledRule.Problem> {
    let result = program(rule, variables)
    if variables == .view, case let .success(program) = result, program.readsLinks { viewReadsLinks = true }
    return result
  }

  /// A rule compiled for a namespace (whose binds it may use) and the variables of its action:
  /// once, then from the cache. A namespace the document does not name meets the `$default`
  /// rules here first.
  func program(_ rule: RulesDocument.Rule, _ variables: CompiledRule.Variables) -> Result<CompiledRule, CompiledRule.Problem> {
    programs.program(ProgramCache.Key(path: rule.path, etype: rule.etype, variables: variables)) {
      do throws(CompiledRule.Problem) {
        try Self.checkAuthRefs(rule)
        return .success(try CompiledRule(rule, binds: document.binds(rule.etype), variables: variables))
      } catch {
        return .failure(error)
      }
    }
  }

  /// `auth.ref` paths must start with `$user.` (checked where the path is written literally).
  static func checkAuthRefs(_ rule: RulesDocument.Rule) throws(CompiledRule.Problem) {
    var rest = Substring(rule.source)
    while let range = rest.range(of: "auth.ref(") {
      rest = rest[range.upperBound...].drop { $0 == " " }
      guard let quote = rest.first, quote == "'" || quote == "\"" else { continue }
      if !rest.dropFirst().hasPrefix("$user.") {
        throw CompiledRule.Problem(message: "auth.ref arg must start with `$user.`", path: rule.path)
      }
    }
  }

  static func bindProblems(_ etype: String, _ bind: JSON?) -> [CompiledRule.Problem] {
    guard case let .array(items)? = bind else { return [] }
    var problems: [CompiledRule.Problem] = []
    if items.count % 2 != 0 {
      problems.append(.init(message: "bind should have an even number of elements", path: [etype, "bind"]))
    }
    var seen: Set<String> = []
    for i in stride(from: 0, to: items.count - 1, by: 2) {
      guard let name = items[i].stringValue else {
        problems.append(.init(message: "bind names should be strings", path: [etype, "bind"]))
        continue
      }
      if !seen.insert(name).inserted {
        problems.append(.init(message: "bind should only contain a given variable name once", path: [etype, "bind", name]))
      }
    }
    return problems
  }
}

/// Compiled rules by place, namespace and variables, shared by the copies of one
/// ``PermissionRules``.
final class ProgramCache: @unchecked Sendable {
  struct Key: Hashable {
    var path: [String]
    var etype: String
    var variables: CompiledRule.Variables
  }

  // Read and written under `lock` only.
  private let lock = NSLock()
  private var programs: [Key: Result<CompiledRule, CompiledRule.Problem>] = [:]

  func program(_ key: Key, make: () -> Result<CompiledRule, CompiledRule.Problem>) -> Result<CompiledRule, CompiledRule.Problem> {
    lock.lock()
    defer { lock.unlock() }
    if let known = programs[key] { return known }
    let made = make()
    programs[key] = made
    return made
  }
}

/// Rules that cannot be used, with every problem found: the reference's `validation-failed`
/// for `rule`, each problem with its place in the document (`in`).
package struct RulesError: Error, Sendable, Equatable, CustomStringConvertible {
  package var input: JSON
  package var problems: [CompiledRule.Problem]

  package var description: String {
    "Validation failed for rule: " + problems.map(\.message).joined(separator: ", ")
  }

  /// The error as the reference's rules route returns it.
  package var serverError: ServerError {
    ServerError(
      .validationFailed, message: description,
      hint: [
        "data-type": "rule", "input": input,
        "errors": .array(problems.map { ["message": .string($0.message), "in": .array($0.path.map(JSON.string))] }),
      ])
  }
}
