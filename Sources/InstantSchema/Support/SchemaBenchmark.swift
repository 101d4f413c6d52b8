#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Measures parse + generate on a large synthetic schema (the figure in BENCHMARKS.md).
///
/// Tooling, not library API: `package` so that only the hidden `instant-schema benchmark`
/// subcommand and the tests of this package see it.
package enum SchemaBenchmark {
  /// Timings of one run, in milliseconds.
  package struct Result: Sendable {
    /// Namespaces in the schema.
    package var entities: Int
    /// Lines in the schema file.
    package var lines: Int
    /// Timed runs.
    package var iterations: Int
    /// Median of the runs, in milliseconds.
    package var median: Double
    /// 99th percentile, in milliseconds.
    package var p99: Double
    /// Fastest run, in milliseconds.
    package var minimum: Double
    /// Median CPU time of the benchmark thread, in milliseconds: less sensitive than wall time
    /// to other processes on a busy machine.
    package var cpuMedian: Double
  }

  private static func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
  }

  /// A synthetic schema with `entityCount` namespaces of every attribute kind, links between
  /// neighbours, doc comments, type arguments and a room: about 20 lines per entity.
  package static func makeSchema(entityCount: Int = 70) -> String {
    var lines = ["// Synthetic benchmark schema.", "import { i } from \"@instantdb/core\";", "",
                 "type Priority = \"low\" | \"medium\" | \"high\";", "", "const _schema = i.schema({", "  entities: {"]
    let kinds = [
      "i.string()", "i.string().indexed()", "i.number()", "i.number().indexed()", "i.boolean()", "i.date().optional()",
      "i.json()", "i.any().optional()", "i.string().unique().indexed()", "i.string<Priority>()",
      "i.json<{ label: string; weight?: number }>().optional()", "i.json<string[]>()", "i.date()",
      "i.boolean().optional()", "i.string().optional()",
    ]
    for entity in 0..<entityCount {
      lines.append("    /** Namespace number \(entity). */")
      lines.append("    items\(entity): i.entity({")
      for (index, kind) in kinds.enumerated() {
        lines.append("      field\(index)_\(entity): \(kind),")
      }
      lines.append("    }),")
    }
    lines.append("  },")
    lines.append("  links: {")
    for entity in 0..<(entityCount - 1) where entity % 2 == 0 {
      lines.append("    link\(entity): {")
      lines.append("      forward: { on: \"items\(entity)\", has: \"many\", label: \"next\(entity)\" },")
      lines.append("      reverse: { on: \"items\(entity + 1)\", has: \"one\", label: \"previous\(entity)\", onDelete: \"cascade\" },")
      lines.append("    },")
    }
    lines.append("  },")
    lines.append("  rooms: { chat: { presence: i.entity({ name: i.string(), typing: i.boolean() }) } },")
    lines.append("});")
    lines.append("")
    lines.append("export default _schema;")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Parses and generates the synthetic schema `iterations` times after one warm-up run.
  package static func run(iterations: Int = 50, entityCount: Int = 70) throws(Diagnostic) -> Result {
    let source = makeSchema(entityCount: entityCount)
    let clock = ContinuousClock()
    var samples: [Double] = []
    var cpuSamples: [Double] = []
    for iteration in 0...iterations {
      let cpuStart = threadCPUTime()
      let start = clock.now
      let parsed = try InstantSchemaParser.parse(source: source, path: "benchmark.schema.ts")
      let output = SwiftGenerator(for: parsed).generate(parsed)
      precondition(output.files.count == SwiftGenerator.fileNames.count)
      let elapsed = clock.now - start
      let cpu = threadCPUTime() - cpuStart
      if iteration > 0 {
        cpuSamples.append(cpu)
        samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
      }
    }
    samples.sort()
    cpuSamples.sort()
    return Result(
      entities: entityCount, lines: source.split(separator: "\n", omittingEmptySubsequences: false).count - 1,
      iterations: iterations, median: samples[samples.count / 2],
      p99: samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))], minimum: samples[0],
      cpuMedian: cpuSamples[cpuSamples.count / 2])
  }
}
