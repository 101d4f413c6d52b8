import Foundation

/// Writing generated files to a directory and comparing them with what is there.
public enum GeneratedFiles {
  /// Writes `files` into `directory`, creating it; files whose contents are unchanged are not
  /// touched, so builds do not see new modification dates. Returns the names written.
  @discardableResult
  public static func write(_ files: [GeneratedFile], to directory: String) throws(Diagnostic) -> [String] {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      var written: [String] = []
      for file in files {
        let path = (directory as NSString).appendingPathComponent(file.name)
        if let existing = try? String(contentsOfFile: path, encoding: .utf8), existing == file.contents { continue }
        try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
        written.append(file.name)
      }
      return written
    } catch {
      throw .error(.io, "cannot write to \(directory): \(error.localizedDescription)")
    }
  }

  /// The names of the files in `directory` that are missing or differ from `files`.
  public static func stale(_ files: [GeneratedFile], in directory: String) -> [String] {
    files.compactMap { file in
      let path = (directory as NSString).appendingPathComponent(file.name)
      let existing = try? String(contentsOfFile: path, encoding: .utf8)
      return existing == file.contents ? nil : file.name
    }
  }
}
