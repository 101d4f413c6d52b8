import Foundation

/// Loads modules (following relative imports) and evaluates expressions into ``Value``s.
final class Interpreter {
  struct Module {
    var path: String
    var syntax: ModuleSyntax
  }

  private let readFile: (String) -> String?
  private(set) var modules: [Module] = []
  private var moduleIndexByPath: [String: Int] = [:]
  private var evaluating: Set<String> = []
  private var resolvingTypes: Set<String> = []
  var warnings: [Diagnostic] = []
  /// Where each entity, attribute, link and room was declared, by schema path.
  var locations: [String: SourceLocation] = [:]

  func record(_ path: String, at origin: Origin) {
    locations[path] = location(origin)
  }
  static let maximumImportDepth = 8

  init(readFile: @escaping (String) -> String?) {
    self.readFile = readFile
  }

  /// The paths of every module read, in the order they were read.
  var modulePaths: [String] { modules.map(\.path) }

  func location(_ origin: Origin) -> SourceLocation {
    modules[origin.module].syntax.source.location(of: origin.offset)
  }

  func source(of origin: Origin) -> SourceFile { modules[origin.module].syntax.source }

  func error(_ kind: Diagnostic.Kind, _ message: String, at origin: Origin) -> Diagnostic {
    .error(kind, message, at: location(origin))
  }

  func warn(_ message: String, at origin: Origin?, path: String?) {
    warnings.append(.warning(message, at: origin.map(location), schemaPath: path))
  }

  // MARK: Modules

  @discardableResult
  func loadModule(path: String, text: String? = nil, depth: Int = 0) throws(Diagnostic) -> Int {
    if let index = moduleIndexByPath[path] { return index }
    guard depth <= Self.maximumImportDepth else {
      throw .error(.unsupported, "imports nest deeper than \(Self.maximumImportDepth) modules at \(path); flatten the schema's imports")
    }
    guard let contents = text ?? readFile(path) else {
      throw .error(.io, "cannot read \(path); check that the file exists and is readable")
    }
    let source = try SourceFile(path: path, text: contents)
    var parser = ModuleParser(source: source)
    let syntax = try parser.parseModule()
    modules.append(Module(path: path, syntax: syntax))
    moduleIndexByPath[path] = modules.count - 1
    return modules.count - 1
  }

  private func resolveModulePath(_ specifier: String, from module: Int, at offset: Int) throws(Diagnostic) -> Int {
    let directory = (modules[module].path as NSString).deletingLastPathComponent
    let base = (directory as NSString).appendingPathComponent(specifier)
    var candidates: [String] = []
    let extensions = [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx"]
    if extensions.contains(where: { specifier.hasSuffix($0) }) {
      candidates.append(base)
      let stem = (base as NSString).deletingPathExtension
      candidates.append(contentsOf: [".ts", ".tsx", ".mts", ".cts"].map { stem + $0 })
    }
    candidates.append(contentsOf: extensions.map { base + $0 })
    candidates.append(contentsOf: ["/index.ts", "/index.tsx", "/index.js"].map { base + $0 })
    let depth = depthOf(module) + 1
    for candidate in candidates {
      let normalized = URL(fileURLWithPath: candidate).standardizedFileURL.path
      if moduleIndexByPath[normalized] != nil { return moduleIndexByPath[normalized]! }
      if let text = readFile(normalized) {
        moduleDepth[normalized] = depth
        return try loadModule(path: normalized, text: text, depth: depth)
      }
    }
    throw error(.io, "cannot find the module \"\(specifier)\" imported here; looked for \(specifier).ts, \(specifier).tsx and \(specifier)/index.ts next to \(modules[module].path)", at: Origin(module: module, offset: offset))
  }

  private var moduleDepth: [String: Int] = [:]
  private func depthOf(_ module: Int) -> Int { moduleDepth[modules[module].path] ?? 0 }

  private static func isRelative(_ specifier: String) -> Bool {
    specifier.hasPrefix("./") || specifier.hasPrefix("../") || specifier == "." || specifier == ".."
  }

  static func isInstantPackage(_ specifier: String) -> Bool {
    specifier.hasPrefix("@instantdb/")
  }

  /// The value a module exports under `name` (`"default"` for the default export).
  func exportedValue(_ name: String, of module: Int, at origin: Origin) throws(Diagnostic) -> Value? {
    let syntax = modules[module].syntax
    if name == "default", let expression = syntax.defaultExport {
      return try evaluate(expression, in: module)
    }
    if let export = syntax.exports[name] {
      switch export {
      case .local(let local):
        return try lookup(local, in: module, at: origin)
      case .reexport(let specifier, let imported):
        return try importedValue(specifier: specifier, name: imported, from: module, at: origin)
      }
    }
    for specifier in syntax.starExports where Self.isRelative(specifier) && name != "default" {
      let target = try resolveModulePath(specifier, from: module, at: origin.offset)
      if let value = try exportedValue(name, of: target, at: origin) { return value }
    }
    return nil
  }

  private func importedValue(specifier: String, name: String?, from module: Int, at origin: Origin) throws(Diagnostic) -> Value {
    if Self.isInstantPackage(specifier) {
      guard let name else { return .instantNamespace(origin) }
      if name == "i" { return .builder(origin) }
      throw error(.unsupported, "`\(name)` from \"\(specifier)\" is not part of the schema DSL; a schema is built from `i` only", at: origin)
    }
    guard Self.isRelative(specifier) else {
      throw error(
        .unsupported,
        "schema parts imported from the package \"\(specifier)\" cannot be read; instant-schema follows relative imports only (move the part into this file or a relative module)",
        at: origin)
    }
    let target = try resolveModulePath(specifier, from: module, at: origin.offset)
    guard let name else {
      return .object(namespaceEntries(of: target), Origin(module: target, offset: 0))
    }
    guard let value = try exportedValue(name, of: target, at: origin) else {
      throw error(.invalid, "\"\(specifier)\" has no export named `\(name)`", at: origin)
    }
    return value
  }

  private func namespaceEntries(of module: Int) -> [ObjectEntry] {
    let syntax = modules[module].syntax
    return syntax.exports.keys.sorted().compactMap { name in
      guard case .local(let local) = syntax.exports[name], syntax.constants[local] != nil else { return nil }
      return ObjectEntry(key: name, origin: Origin(module: module, offset: 0), expression: .identifier(local, at: 0), documentation: nil)
    }
  }

  // MARK: Evaluation

  func lookup(_ name: String, in module: Int, at origin: Origin) throws(Diagnostic) -> Value {
    let syntax = modules[module].syntax
    if let expression = syntax.constants[name] {
      let key = "\(module):\(name)"
      guard !evaluating.contains(key) else {
        throw error(.invalid, "`\(name)` refers to itself", at: origin)
      }
      evaluating.insert(key)
      defer { evaluating.remove(key) }
      return try evaluate(expression, in: module)
    }
    if let binding = syntax.imports[name] {
      switch binding {
      case .named(let specifier, let imported, _):
        return try importedValue(specifier: specifier, name: imported, from: module, at: origin)
      case .defaultValue(let specifier, _):
        return try importedValue(specifier: specifier, name: "default", from: module, at: origin)
      case .namespace(let specifier, _):
        return try importedValue(specifier: specifier, name: nil, from: module, at: origin)
      }
    }
    throw error(.invalid, "`\(name)` is not defined in \((modules[module].path as NSString).lastPathComponent); a schema can refer to constants declared or imported in its file", at: origin)
  }

  func evaluate(_ entry: ObjectEntry) throws(Diagnostic) -> Value {
    try evaluate(entry.expression, in: entry.origin.module)
  }

  func evaluate(_ expression: Expression, in module: Int) throws(Diagnostic) -> Value {
    let origin = Origin(module: module, offset: expression.offset)
    switch expression {
    case .object(let properties, _):
      var entries: [ObjectEntry] = []
      var literalKeys: Set<String> = []
      for property in properties {
        switch property {
        case .pair(let key, let keyOffset, let value, let doc):
          guard literalKeys.insert(key).inserted else {
            throw error(.invalid, "duplicate key `\(key)`", at: Origin(module: module, offset: keyOffset))
          }
          entries.removeAll { $0.key == key }
          entries.append(ObjectEntry(key: key, origin: Origin(module: module, offset: keyOffset), expression: value, documentation: doc))
        case .spread(let spread, let at):
          let spreadOrigin = Origin(module: module, offset: at)
          switch try evaluate(spread, in: module) {
          case .object(let spreadEntries, _):
            for spreadEntry in spreadEntries {
              entries.removeAll { $0.key == spreadEntry.key }
              entries.append(spreadEntry)
            }
          case .null:
            break
          case let other:
            throw error(.unsupported, "a spread `...` must name an object literal, found \(other.kindDescription)", at: spreadOrigin)
          }
        case .unsupported(let what, let at):
          throw error(.unsupported, "\(what) is not supported in a schema", at: Origin(module: module, offset: at))
        }
      }
      return .object(entries, origin)
    case .array(let elements, _):
      return .array(elements, origin)
    case .string(let value, _):
      return .string(value, origin)
    case .number(let value, _):
      return .number(value, origin)
    case .boolean(let value, _):
      return .boolean(value, origin)
    case .null:
      return .null(origin)
    case .identifier(let name, _):
      return try lookup(name, in: module, at: origin)
    case .member(let baseExpression, let name, _):
      let base = try evaluate(baseExpression, in: module)
      return try member(name, of: base, at: origin)
    case .call(let calleeExpression, let typeArguments, let argumentExpressions, _):
      let callee = try evaluate(calleeExpression, in: module)
      var arguments: [Value] = []
      for (index, argument) in argumentExpressions.enumerated() {
        if index == 0, argumentExpressions.count == 3, case .builderMember("graph", _) = callee {
          // The legacy `i.graph(appId, entities, links)` ignores its first argument, which is often
          // `process.env.INSTANT_APP_ID!`.
          arguments.append(.null(Origin(module: module, offset: argument.offset)))
          continue
        }
        arguments.append(try evaluate(argument, in: module))
      }
      switch callee {
      case .builderMember(let name, _):
        return .builderCall(
          name, typeArguments: typeArguments, arguments: arguments, Origin(module: module, offset: calleeExpression.startOffset))
      case .boundMethod(let base, let name, let methodOrigin):
        return .methodCall(base, name, arguments: arguments, Origin(module: module, offset: methodOrigin.offset))
      default:
        throw error(
          .unsupported,
          "calls to \(calleeExpression.kindDescription) are not supported; a schema may only call `i.*` builders and their modifiers",
          at: Origin(module: module, offset: calleeExpression.offset))
      }
    case .unsupported(let what, _):
      throw error(.unsupported, "\(what) is not supported in a schema", at: origin)
    }
  }

  static let builderMembers: Set<String> = ["schema", "graph", "entity", "string", "number", "boolean", "date", "json", "any"]

  private func member(_ name: String, of base: Value, at origin: Origin) throws(Diagnostic) -> Value {
    switch base {
    case .builder:
      guard Self.builderMembers.contains(name) else {
        throw error(
          .unsupported,
          "`i.\(name)` is not an InstantDB schema builder; expected i.string, i.number, i.boolean, i.date, i.json, i.any, i.entity, i.schema or i.graph",
          at: origin)
      }
      return .builderMember(name, origin)
    case .instantNamespace:
      guard name == "i" else {
        throw error(.unsupported, "`\(name)` from an @instantdb package is not part of the schema DSL", at: origin)
      }
      return .builder(origin)
    case .object(let entries, _):
      guard let entry = entries.last(where: { $0.key == name }) else {
        throw error(.invalid, "the object has no property `\(name)`", at: origin)
      }
      return try evaluate(entry)
    case .builderCall(let kind, _, let arguments, _) where kind == "schema" || kind == "graph":
      if ["entities", "links", "rooms"].contains(name) {
        let index = (arguments.count >= 3 ? 1 : 0) + (name == "links" ? 1 : 0)
        if kind == "schema" {
          guard case .object(let entries, _) = arguments.first, let entry = entries.first(where: { $0.key == name }) else {
            return .object([], origin)
          }
          return try evaluate(entry)
        }
        guard name != "rooms", index < arguments.count else { return .object([], origin) }
        return arguments[index]
      }
      return .boundMethod(base, name, origin)
    case .builderCall, .methodCall:
      return .boundMethod(base, name, origin)
    default:
      throw error(.unsupported, "cannot read `.\(name)` of \(base.kindDescription)", at: origin)
    }
  }

  // MARK: Types

  /// Parses and resolves the type arguments of a builder call.
  func resolveTypeArguments(_ typeArguments: TypeArguments, in module: Int) -> TypeExpression {
    let source = modules[module].syntax.source
    var parser = TypeParser(source: source, from: typeArguments.firstToken, to: typeArguments.endToken) { [unowned self] name, _ in
      self.resolveTypeName(name, in: module)
    }
    return parser.parseAll()
  }

  func resolveTypeName(_ name: String, in module: Int) -> TypeExpression {
    let syntax = modules[module].syntax
    let key = "\(module):\(name)"
    guard !resolvingTypes.contains(key) else { return .opaque("the recursive type `\(name)`") }
    if let declaration = syntax.types[name] {
      resolvingTypes.insert(key)
      defer { resolvingTypes.remove(key) }
      var parser = TypeParser(source: syntax.source, from: declaration.firstToken, to: declaration.endToken) { [unowned self] inner, _ in
        self.resolveTypeName(inner, in: module)
      }
      return .alias(name, parser.parseAll())
    }
    if let binding = syntax.imports[name] {
      switch binding {
      case .named(let specifier, let imported, let at) where Self.isRelative(specifier):
        guard let target = try? resolveModulePath(specifier, from: module, at: at) else {
          return .opaque("`\(name)` from \"\(specifier)\"")
        }
        let exported = exportedTypeName(imported, of: target)
        let resolved = resolveTypeName(exported.name, in: exported.module)
        if case .alias(_, let type) = resolved { return .alias(name, type) }
        return resolved
      case .named(let specifier, _, _), .defaultValue(let specifier, _), .namespace(let specifier, _):
        return .opaque("`\(name)` from \"\(specifier)\"")
      }
    }
    return .opaque("`\(name)`")
  }

  private func exportedTypeName(_ name: String, of module: Int) -> (name: String, module: Int) {
    let syntax = modules[module].syntax
    if case .local(let local)? = syntax.exports[name] { return (local, module) }
    return (name, module)
  }
}
