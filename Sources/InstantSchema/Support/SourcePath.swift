import Foundation

/// A source file's path as the caller gave it, and the absolute path modules are read and keyed
/// by: diagnostics name the file as it was given.
struct SourcePath {
  let given: String
  let absolute: String

  /// For source text that names no real file: `path` is made absolute under `/`.
  init(text path: String) {
    given = path
    absolute = path.hasPrefix("/") ? path : URL(fileURLWithPath: "/" + path).standardizedFileURL.path
  }

  /// For a file on disk.
  init(file path: String) {
    given = path
    absolute = URL(fileURLWithPath: path).standardizedFileURL.path
  }

  func relative(_ location: SourceLocation?) -> SourceLocation? {
    guard var location else { return nil }
    if location.file == absolute { location.file = given }
    return location
  }

  func relative(_ error: Diagnostic) -> Diagnostic {
    var error = error
    error.location = relative(error.location)
    error.message = error.message.replacingOccurrences(of: absolute + ":", with: given + ":")
    return error
  }
}
