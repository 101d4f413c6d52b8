/// Why a program was rejected when it was created: bad syntax, an unknown function or variable,
/// a limit. Carries where, so a server can log `file:line:column: error: message`.
public struct CELParseError: Error, Sendable, Equatable, CustomStringConvertible {
  public let message: String
  /// Where the problem starts: offset in Unicode scalars from the start of the source, 0-based.
  public let offset: Int
  /// 1-based line of `offset`.
  public let line: Int
  /// 1-based column of `offset`, in Unicode scalars.
  public let column: Int

  public init(message: String, offset: Int, line: Int, column: Int) {
    self.message = message
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// `line:column: message`.
  public var description: String { "\(line):\(column): \(message)" }
}
