import Foundation

/// The git checks of `instant-schema generate`: the schema must be committed and the output
/// directory clean, so every generated change can be traced to a commit of the schema.
public enum GitState {
  /// Throws unless `file` is tracked and unmodified.
  public static func requireCommitted(_ file: String) throws(SchemaError) {
    let directory = (absolute(file) as NSString).deletingLastPathComponent
    let tracked = try git(["ls-files", "--error-unmatch", "--", absolute(file)], in: directory)
    guard tracked.status == 0 else {
      throw SchemaError(.io, "\(file) is not committed to git; run `git add \(file) && git commit`, or pass --force to skip this check")
    }
    let status = try git(["status", "--porcelain", "--", absolute(file)], in: directory)
    guard status.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw SchemaError(.io, "\(file) has uncommitted changes (\(status.output.trimmingCharacters(in: .whitespacesAndNewlines))); commit it first, or pass --force to skip this check")
    }
  }

  /// Throws unless `directory` has no uncommitted or untracked changes.
  public static func requireClean(_ directory: String) throws(SchemaError) {
    let path = absolute(directory)
    var existing = path
    while !FileManager.default.fileExists(atPath: existing), existing != "/" {
      existing = (existing as NSString).deletingLastPathComponent
    }
    let status = try git(["status", "--porcelain", "--untracked-files=all", "--", path], in: existing)
    guard status.status == 0 else {
      throw SchemaError(.io, "\(directory) is not inside a git repository; run `git init`, or pass --force to skip this check")
    }
    let changes = status.output.split(separator: "\n").filter { !$0.hasPrefix("warning:") && !$0.hasPrefix("error:") }
    guard changes.isEmpty else {
      throw SchemaError(.io, "the output directory \(directory) has uncommitted changes:\n\(changes.prefix(10).joined(separator: "\n"))\ncommit or discard them first, or pass --force to skip this check")
    }
  }

  static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  private static func git(_ arguments: [String], in directory: String) throws(SchemaError) -> (status: Int32, output: String) {
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
      throw SchemaError(.io, "cannot run git (\(error.localizedDescription)); install git, or pass --force to skip the git checks")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
