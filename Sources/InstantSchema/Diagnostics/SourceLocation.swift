/// A position in a schema source file, reported in errors and warnings as `file:line:column`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file's path as it was given to the parser.
  public var file: String
  /// The 1-based line.
  public var line: Int
  /// The 1-based column, counted in characters.
  public var column: Int

  /// Creates a location.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  public var description: String { "\(file):\(line):\(column)" }
}
