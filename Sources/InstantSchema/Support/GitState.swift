import Foundation

/// The git checks of `instant-schema generate`: the schema must be committed and the output
/// directory clean, so every generated change can be traced to a commit of the schema.
package enum GitState {
  /// Throws unless `file` is inside a git repository, tracked and unmodified.
  package static func requireCommitted(_ file: String) throws(Diagnostic) {
    guard FileManager.default.fileExists(atPath: absolute(file)) else { throw .unreadable(file) }
    let directory = existingAncestor(of: (absolute(file) as NSString).deletingLastPathComponent)
    try requireRepository(file, in: directory)
    let tracked = try git(["ls-files", "--error-unmatch", "--", absolute(file)], in: directory)
    guard tracked.status == 0 else {
      throw .error(.io, "\(file) is not committed to git; run `git add \(file) && git commit`, or pass --force to skip this check")
    }
    let status = try git(["status", "--porcelain", "--", absolute(file)], in: directory)
    guard status.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw .error(.io, "\(file) has uncommitted changes (\(status.output.trimmingCharacters(in: .whitespacesAndNewlines))); commit it first, or pass --force to skip this check")
    }
  }

  /// Throws unless `directory` is inside a git repository and has no uncommitted or untracked
  /// changes.
  package static func requireClean(_ directory: String) throws(Diagnostic) {
    let path = absolute(directory)
    let existing = existingAncestor(of: path)
    try requireRepository(directory, in: existing)
    let status = try git(["status", "--porcelain", "--untracked-files=all", "--", path], in: existing)
    guard status.status == 0 else {
      throw .error(.io, "git cannot read the status of \(directory); check the repository, or pass --force to skip this check")
    }
    let changes = status.output.split(separator: "\n").filter { !$0.hasPrefix("warning:") && !$0.hasPrefix("error:") }
    guard changes.isEmpty else {
      throw .error(.io, "the output directory \(directory) has uncommitted changes:\n\(changes.prefix(10).joined(separator: "\n"))\ncommit or discard them first, or pass --force to skip this check")
    }
  }

  /// Throws, naming `path`, unless `directory` is inside a git work tree.
  private static func requireRepository(_ path: String, in directory: String) throws(Diagnostic) {
    let inside = try git(["rev-parse", "--is-inside-work-tree"], in: directory)
    guard inside.status == 0, inside.output.trimmingCharacters(in: .whitespacesAndNewlines) == "true" else {
      throw .error(.io, "\(path) is not inside a git repository, so instant-schema cannot check that the generated files trace back to a commit; run `git init` and commit the schema, or pass --force to skip the git checks")
    }
  }

  /// `path`, or its nearest ancestor that exists (the output directory may not exist yet).
  private static func existingAncestor(of path: String) -> String {
    var existing = path
    while !FileManager.default.fileExists(atPath: existing), existing != "/" {
      existing = (existing as NSString).deletingLastPathComponent
    }
    return existing
  }

  static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  private static func git(_ arguments: [String], in directory: String) throws(Diagnostic) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = Pipe()
    do {
      try process.run()
    } catch {
      throw .error(.io, "cannot run git (\(error.localizedDescription)); install git, or pass --force to skip the git checks")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
