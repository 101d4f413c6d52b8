/// One file written by the generator.
public struct GeneratedFile: Sendable, Hashable {
  /// The file name, for example `Entities.swift`.
  public var name: String
  /// The file's full text.
  public var contents: String

  public init(name: String, contents: String) {
    self.name = name
    self.contents = contents
  }
}
