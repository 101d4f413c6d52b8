import CEL
import InstantCore
import OrderedCollections

/// One rule, parsed and checked once per rules version: its program, and the binds it uses
/// (transitively), in the order they must be evaluated.
///
/// The reference wraps a rule in `cel.bind(name, init, body)` for each bind it uses, which
/// evaluates every used bind before the body, whether or not the body needs it; evaluating them
/// in order into the activation means the same, errors included.
package struct CompiledRule: Sendable {
  package let rule: RulesDocument.Rule
  let program: CELProgram
  let binds: [(name: String, source: String, program: CELProgram)]
  /// Whether the rule or a bind it uses follows links (`ref`): its answer can change when
  /// another namespace does. Read from the text, so a `ref(` in a string counts too.
  let readsLinks: Bool

  /// The variables each kind of rule may use (the reference's compile-time declarations:
  /// `newData` in a `view` rule is an error when the rules are pushed).
  package enum Variables: Sendable {
    case view, write, link, unlink

    var names: Set<String> {
      let base: Set<String> = ["auth", "data", "ruleParams", "request"]
      switch self {
      case .view: return base
      case .write: return base.union(["newData"])
      case .link: return base.union(["newData", "linkedData", "actions"])
      case .unlink: return base.union(["newData", "linkedData"])
      }
    }
  }

  /// Why a rule does not compile: the message, and where in the document (`in`).
  package struct Problem: Error, Sendable, Equatable {
    package var message: String
    package var path: [String]
    /// Where in the rule's text, when the parser says.
    package var line: Int?
    package var column: Int?
  }

  package init(_ rule: RulesDocument.Rule, binds available: [(name: String, source: String)], variables: Variables)
    throws(Problem)
  {
    self.rule = rule
    let sources = Dictionary(available.map { ($0.name, $0.source) }, uniquingKeysWith: { _, last in last })
    // Binds are variables to the rule and to each other; a name that is neither is refused by
    // the compiler ("undeclared reference to 'newData'"), as the reference refuses it.
    let names = variables.names.union(sources.keys)
    let program = try Self.compile(rule.source, names: names, path: rule.path)
    var compiled: [String: CELProgram] = [:]
    var order: [String] = []
    var visiting: [String] = []
    func visit(_ name: String) throws(Problem) {
      if order.contains(name) { return }
      if let start = visiting.firstIndex(of: name) {
        let cycle = (visiting[start...] + [name]).joined(separator: " -> ")
        throw Problem(message: "The binds have a cyclic dependency \(cycle)", path: rule.path)
      }
      guard let source = sources[name] else { return }
      visiting.append(name)
      let bindProgram = try Self.compile(source, names: names, path: rule.path)
      for used in bindProgram.referencedVariables.sorted() { try visit(used) }
      visiting.removeLast()
      compiled[name] = bindProgram
      order.append(name)
    }
    for used in program.referencedVariables.sorted() { try visit(used) }
    self.program = program
    self.binds = order.map { ($0, sources[$0]!, compiled[$0]!) }
    self.readsLinks = rule.source.contains("ref(") || order.contains { sources[$0]!.contains("ref(") }
  }

  /// The rule as it is evaluated, as the reference reports it (`code`): its text wrapped in
  /// `cel.bind(name, expr, …)` for each bind it uses, the first evaluated outermost.
  package var code: String {
    binds.reversed().reduce(rule.source) { body, bind in "cel.bind(\(bind.name), \(bind.source), \(body))" }
  }

  static func compile(_ source: String, names: Set<String>, path: [String]) throws(Problem) -> CELProgram {
    do {
      return try CELProgram(source, variables: names, functions: RuleFunctions.functions, limits: RuleFunctions.limits)
    } catch {
      throw Problem(message: error.message, path: path, line: error.line, column: error.column)
    }
  }

  /// Evaluates the rule: its binds, then its body. Truthy (anything but `false` and `null`, as
  /// the reference reads a result) allows.
  func allows(_ variables: [String: CELValue]) throws(CELEvaluationError) -> Bool {
    var activation = CELVariables(variables)
    for (name, _, program) in binds {
      activation.values[name] = try program.evaluate(activation)
    }
    switch try program.evaluate(activation) {
    case .bool(false), .null: return false
    default: return true
    }
  }
}
