import Foundation
import InstantSchema
import Testing
import TestSupport

/// instant-schema's parser and generator on mutated real schemas (issue 11): every input gives a
/// schema or an error, never a crash or a hang, and syntax errors say where. Seeded: a failure
/// names the seed, the source and the mutation number, so it can be replayed.
@Suite("Schema parser fuzzing", .timeLimit(.minutes(10)))
struct ParserFuzzTests {
  /// Every schema this repository holds: the parser fixtures, the generator fixture, the demos'.
  static var sources: [(name: String, text: String)] {
    let tests = TestSupport.testsDirectory
    let root = tests.deletingLastPathComponent().deletingLastPathComponent()
    var files = [
      TestSupport.fixtureDirectory.appendingPathComponent("instant.schema.ts"),
      root.appendingPathComponent("Examples/Schema/instant.schema.ts"),
    ]
    for case let url as URL in FileManager.default.enumerator(at: TestSupport.schemasDirectory, includingPropertiesForKeys: nil) ?? .init()
    where url.pathExtension == "ts" {
      files.append(url)
    }
    return files.sorted { $0.path < $1.path }.compactMap { url in
      (try? String(contentsOf: url, encoding: .utf8)).map { (url.lastPathComponent, $0) }
    }
  }

  /// Mutated copies per source and seed: 150 in `swift test`; `INSTANT_FUZZ_ROUNDS` for a longer run.
  static let rounds = ProcessInfo.processInfo.environment["INSTANT_FUZZ_ROUNDS"].flatMap(Int.init) ?? 150

  static let tokens = [
    "{", "}", "(", ")", "[", "]", "\"", "'", "`", ",", ";", ":", ".", "=", "<", ">", "|", "?", "/*", "*/", "//",
    "\n", "i.string()", "i.entity({", "i.json<", ".optional()", "has: 'many'", "links: {", "rooms: {", "\\", "é", "\u{0}",
    "0x", "1e999", "${", "import ", "export default ", "as const",
  ]

  @Test("Mutated schemas parse or fail with a located error; what parses also generates", arguments: [UInt64(1), 2, 3])
  func mutatedSchemas(seed: UInt64) async throws {
    let sources = Self.sources
    #expect(sources.count >= 10, "the fixtures are where the tests expect them")
    // Seconds of parsing: off the cooperative pool, where it would stall the other suites' tasks.
    let (parsed, failed, unlocated) = await offThePool {
      var rng = SeededGenerator(seed: seed)
      var (parsed, failed, unlocated) = (0, 0, [String]())
      for (name, text) in sources {
        for round in 0..<Self.rounds {
          var chars = Array(text.unicodeScalars)
          for _ in 0..<Int.random(in: 1...3, using: &rng) { Self.mutate(&chars, using: &rng) }
          var mutated = String.UnicodeScalarView()
          mutated.append(contentsOf: chars)
          do throws(Diagnostic) {
            let result = try InstantSchemaParser.parse(source: String(mutated))
            _ = SwiftGenerator(for: result).generate(result.schema)
            parsed += 1
          } catch {
            failed += 1
            if error.kind == .syntax && error.location == nil { unlocated.append("seed \(seed), \(name), round \(round): \(error)") }
          }
        }
      }
      return (parsed, failed, unlocated)
    }
    #expect(parsed + failed == sources.count * Self.rounds)
    #expect(failed > 0, "the mutations do break schemas")
    #expect(unlocated.isEmpty, "syntax errors without a location: \(unlocated.prefix(5))")
  }

  static func mutate(_ chars: inout [Unicode.Scalar], using rng: inout SeededGenerator) {
    guard !chars.isEmpty else { return chars = Array("{".unicodeScalars) }
    let at = Int.random(in: 0..<chars.count, using: &rng)
    let length = min(Int.random(in: 1...24, using: &rng), chars.count - at)
    switch Int.random(in: 0..<5, using: &rng) {
    case 0: chars.removeSubrange(at..<(at + length))
    case 1: chars.insert(contentsOf: chars[at..<(at + length)], at: at)
    case 2: chars.insert(contentsOf: tokens.randomElement(using: &rng)!.unicodeScalars, at: at)
    case 3: chars.removeSubrange(at...)
    default:
      let other = Int.random(in: 0..<chars.count, using: &rng)
      chars.swapAt(at, other)
    }
  }
}
