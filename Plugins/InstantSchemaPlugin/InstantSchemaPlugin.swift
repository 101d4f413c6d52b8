import Foundation
import PackagePlugin

/// Generates Swift from the target's `instant.schema.ts` on every build.
///
/// Put `instant.schema.ts` (and any `.ts` modules it imports) in the target's directory. The
/// plugin runs `instant-schema plugin-generate`, which skips the git checks of `generate` and
/// rewrites only changed files, and declares all five generated files as outputs so SwiftPM
/// compiles them into the target.
@main
struct InstantSchemaPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let typeScriptFiles = target.sourceFiles.map(\.url).filter { ["ts", "mts", "cts"].contains($0.pathExtension) }
    var schema = typeScriptFiles.first { $0.lastPathComponent == "instant.schema.ts" }
    if schema == nil {
      let candidate = target.directoryURL.appendingPathComponent("instant.schema.ts")
      if FileManager.default.fileExists(atPath: candidate.path) { schema = candidate }
    }
    guard let schema else {
      Diagnostics.remark("InstantSchemaPlugin: no instant.schema.ts in \(target.name); nothing to generate")
      return []
    }
    return [
      Self.command(
        tool: try context.tool(named: "instant-schema").url, schema: schema, inputs: typeScriptFiles,
        output: context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedSources"))
    ]
  }

  static func command(tool: URL, schema: URL, inputs: [URL], output: URL) -> Command {
    let names = ["Entities.swift", "Schema.swift", "Rooms.swift", "Links.swift", "Mutations.swift"]
    return .buildCommand(
      displayName: "Generating Swift from \(schema.lastPathComponent)",
      executable: tool,
      arguments: ["plugin-generate", "--from", schema.path, "--to", output.path],
      inputFiles: Array(Set(inputs + [schema])).sorted { $0.path < $1.path },
      outputFiles: names.map { output.appendingPathComponent($0) }
    )
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension InstantSchemaPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
      let typeScriptFiles = target.inputFiles.map(\.url).filter { ["ts", "mts", "cts"].contains($0.pathExtension) }
      guard let schema = typeScriptFiles.first(where: { $0.lastPathComponent == "instant.schema.ts" }) else { return [] }
      return [
        Self.command(
          tool: try context.tool(named: "instant-schema").url, schema: schema, inputs: typeScriptFiles,
          output: context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedSources"))
      ]
    }
  }
#endif
