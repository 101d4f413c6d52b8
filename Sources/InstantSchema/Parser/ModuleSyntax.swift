/// The parts of one TypeScript module that a schema can refer to.
struct ModuleSyntax: Sendable {
  /// How a local name was imported.
  enum Import: Sendable {
    case named(module: String, name: String, at: Int)
    case defaultValue(module: String, at: Int)
    case namespace(module: String, at: Int)
  }

  /// What an exported name refers to.
  enum Export: Sendable {
    case local(String)
    case reexport(module: String, name: String)
  }

  /// A `type X = …` or `interface X {…}` declaration, as a token range for the type parser.
  struct TypeDeclaration: Sendable {
    var firstToken: Int
    var endToken: Int
    var isInterface: Bool
  }

  var source: SourceFile
  var imports: [String: Import] = [:]
  var constants: [String: Expression] = [:]
  var constantOrder: [String] = []
  var defaultExport: Expression?
  var exports: [String: Export] = [:]
  var starExports: [String] = []
  var types: [String: TypeDeclaration] = [:]
}
