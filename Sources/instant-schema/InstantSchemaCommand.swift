import ArgumentParser
import Foundation
import InstantSchema

@main
struct InstantSchemaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "instant-schema",
    abstract: "Generate typed Swift from an InstantDB schema (instant.schema.ts).",
    subcommands: [
      SampleCommand.self, GenerateCommand.self, CheckCommand.self, PullCommand.self, LintCommand.self,
      PluginGenerateCommand.self, BenchmarkCommand.self,
    ]
  )

  /// ArgumentParser's `main()`, except that a ``Diagnostic`` prints as it describes itself
  /// (`file:line:column: error: …`), without ArgumentParser's own `Error: ` in front.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? (any AsyncParsableCommand) {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch let error as Diagnostic {
      printError(error.description)
      exit(withError: ExitCode.failure)
    } catch {
      exit(withError: error)
    }
  }
}

/// Prints to standard error.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Parses a schema file and generates its Swift, printing warnings.
func generateFiles(from path: String, quiet: Bool = false) throws -> [GeneratedFile] {
  let parsed = try InstantSchemaParser.parse(fileAt: path)
  let output = SwiftGenerator(for: parsed).generate(parsed)
  if !quiet {
    for warning in parsed.warnings + output.warnings { printError(warning.description) }
  }
  return output.files
}

struct SampleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sample",
    abstract: "Write a sample instant.schema.ts and its Swift, with no git requirements.")

  @Option(name: .long, help: "The directory for the generated Swift files.")
  var to: String = "Sources/Generated"

  @Option(name: .long, help: "Where to write the sample schema.")
  var schema: String = SampleSchema.fileName

  func run() throws {
    if let existing = try? String(contentsOfFile: schema, encoding: .utf8) {
      if existing != SampleSchema.source {
        printError("\(schema) exists; generating from it instead of writing the sample")
      }
    } else {
      try SampleSchema.source.write(toFile: schema, atomically: true, encoding: .utf8)
      print("Wrote \(schema)")
    }
    let files = try generateFiles(from: schema)
    try GeneratedFiles.write(files, to: to)
    print("Generated \(files.map(\.name).joined(separator: ", ")) in \(to)")
  }
}

struct GenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Generate Swift from a committed schema file into a clean directory.",
    discussion: """
      The schema file must be committed and the output directory must have no uncommitted changes, \
      so that every generated change can be traced to a commit of the schema.
      """)

  @Option(name: .long, help: "The schema file, for example instant.schema.ts.")
  var from: String

  @Option(name: .long, help: "The directory for the generated Swift files.")
  var to: String

  @Flag(name: .long, help: "Skip the git checks (the output is then not traceable to a commit).")
  var force = false

  func run() throws {
    if force {
      printError("WARNING: --force: skipping the git checks; the generated files may not match any committed schema.")
    } else {
      try GitState.requireCommitted(from)
      try GitState.requireClean(to)
    }
    let files = try generateFiles(from: from)
    let written = try GeneratedFiles.write(files, to: to)
    print(written.isEmpty ? "\(to) is up to date" : "Wrote \(written.joined(separator: ", ")) in \(to)")
  }
}

struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Exit non-zero if the generated files are missing or stale (for CI).")

  @Option(name: .long, help: "The schema file.")
  var from: String

  @Option(name: .long, help: "The directory holding the generated Swift files.")
  var to: String

  func run() throws {
    let files = try generateFiles(from: from, quiet: true)
    let stale = GeneratedFiles.stale(files, in: to)
    guard stale.isEmpty else {
      printError("error: \(stale.joined(separator: ", ")) in \(to) \(stale.count == 1 ? "is" : "are") stale or missing; run `instant-schema generate --from \(from) --to \(to)`")
      throw ExitCode(1)
    }
    print("\(to) is up to date with \(from)")
  }
}

struct PullCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pull",
    abstract: "Fetch an app's schema from an Instant server and generate Swift from it.",
    discussion: """
      Reads GET {api-uri}/dash/apps/{app}/schema/pull. The server's schema has no rooms, type \
      arguments or link names; generate from instant.schema.ts when you have it.
      """)

  @Option(name: .long, help: "The app id.")
  var app: String

  @Option(name: .customLong("api-uri"), help: "The server's API address (hosted InstantDB by default).")
  var apiURI: String = SchemaPull.defaultAPIURI.absoluteString

  @Option(name: .long, help: "A token with access to the app (default: $INSTANT_CLI_AUTH_TOKEN or $INSTANT_ADMIN_TOKEN).")
  var token: String?

  @Option(name: .long, help: "The directory for the generated Swift files.")
  var to: String

  @Flag(name: .long, help: "Skip the clean-directory check.")
  var force = false

  func run() async throws {
    guard let url = URL(string: apiURI), url.scheme != nil else {
      throw ValidationError("--api-uri must be a URL such as https://api.instantdb.com")
    }
    if force {
      printError("WARNING: --force: skipping the clean-directory check.")
    } else {
      try GitState.requireClean(to)
    }
    let environment = ProcessInfo.processInfo.environment
    let token =
      token ?? environment["INSTANT_CLI_AUTH_TOKEN"] ?? environment["INSTANT_ADMIN_TOKEN"]
      ?? environment["INSTANT_APP_ADMIN_TOKEN"]
    let data = try await SchemaPull.fetch(appID: app, apiURI: url, token: token)
    let schema = try SchemaPull.schema(fromPullResponse: data)
    let generator = SwiftGenerator(sourceName: "app \(app) at \(apiURI)", sourceHash: SchemaPull.hash(of: data))
    let output = generator.generate(schema)
    for warning in output.warnings { printError(warning.description) }
    let written = try GeneratedFiles.write(output.files, to: to)
    print("Pulled \(schema.entities.count) entities and \(schema.links.count) links; wrote \(written.count) files in \(to)")
  }
}

struct LintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Read schema files and report errors and warnings without generating.")

  @Argument(help: "Schema files.")
  var files: [String]

  func run() throws {
    var failed = 0
    for file in files {
      do {
        let parsed = try InstantSchemaParser.parse(fileAt: file)
        let output = SwiftGenerator(for: parsed).generate(parsed)
        for warning in parsed.warnings + output.warnings { print(warning.description) }
        print("\(file): ok: \(parsed.schema.entities.count) entities, \(parsed.schema.links.count) links, \(parsed.schema.rooms.count) rooms")
      } catch {
        failed += 1
        print(error.description)
      }
    }
    if failed > 0 { throw ExitCode(1) }
  }
}

struct PluginGenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plugin-generate",
    abstract: "Generate for the SwiftPM build plugin (no git checks; unchanged files are not rewritten).",
    shouldDisplay: false)

  @Option(name: .long) var from: String
  @Option(name: .long) var to: String

  func run() throws {
    try GeneratedFiles.write(try generateFiles(from: from), to: to)
  }
}

struct BenchmarkCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "benchmark",
    abstract: "Time parse + generate of a synthetic 70-entity schema.",
    shouldDisplay: false)

  @Option(name: .long) var iterations = 100
  @Option(name: .long) var entities = 70

  func run() throws {
    let result = try SchemaBenchmark.run(iterations: iterations, entityCount: entities)
    print(
      String(
        format: "parse+generate: %d entities, %d lines, %d iterations: median %.2f ms, p99 %.2f ms, min %.2f ms, CPU median %.2f ms",
        result.entities, result.lines, result.iterations, result.median, result.p99, result.minimum, result.cpuMedian))
  }
}
