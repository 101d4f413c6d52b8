import Foundation
import Testing
@testable import InstantCore

/// `shared/conformance/instaql-samples.json`, run in-process through ``ConformanceRunner``.
@Suite("Conformance samples", .fixturesAvailable) struct ConformanceSampleTests {
  static let samplesURL = Fixture.root
    .appendingPathComponent("../../conformance/instaql-samples.json").standardizedFileURL

  static func samples() throws -> [JSON] {
    let data = try #require(
      FileManager.default.contents(atPath: samplesURL.path), "conformance samples not found at \(samplesURL.path)")
    return try #require(JSON.parse(bytes: data).arrayValue)
  }

  static func runner() -> ConformanceRunner {
    ConformanceRunner(
      loadDataset: { name in
        let fixture = try #require(Fixture(rawValue: name), "unknown dataset \(name)")
        return try fixture.files
      },
      clock: { 0 })
  }

  @Test("there are 15 samples, each with an expected value") func samplesAreThere() throws {
    let samples = try Self.samples()
    #expect(samples.count == 15)
    #expect(samples.allSatisfy { $0["expected"] != nil })
  }

  @Test("every sample gives its expected result") func everySample() throws {
    var runner = Self.runner()
    for sample in try Self.samples() {
      let name = sample["name"]?.stringValue ?? "?"
      let expected = try #require(sample["expected"])
      #expect(runner.run(sample) == expected, "sample \(name)")
    }
  }

  @Test("a query the engine refuses becomes {error}") func errorResult() throws {
    var runner = Self.runner()
    let result = runner.run(["dataset": "zeneca", "query": ["users": ["$": ["where": ["handle": nil]]]]])
    #expect(result["error"]?.stringValue != nil)
    #expect(result["data"] == nil)
  }

  @Test("inline attrs and triples, rows without a time") func inlineDataset() throws {
    var runner = Self.runner()
    let result = runner.run(try JSON.parse(#"""
      {"attrs": {"x": {"id": "x", "forward-identity": ["fx", "things", "id"], "value-type": "blob", "cardinality": "one"}},
       "triples": [["00000000-0000-4000-8000-000000000002", "x", "00000000-0000-4000-8000-000000000002"],
                   ["00000000-0000-4000-8000-000000000001", "x", "00000000-0000-4000-8000-000000000001"]],
       "query": {"things": {}}}
      """#))
    #expect(result == ["data": ["things": [
      ["id": "00000000-0000-4000-8000-000000000001"], ["id": "00000000-0000-4000-8000-000000000002"],
    ]]])
  }

  @Test("repeat adds timings") func repeatTiming() throws {
    var runner = Self.runner()
    let result = runner.run(["dataset": "zeneca", "query": ["users": ["$": ["fields": ["handle"]]]], "repeat": 3])
    #expect(result["timing"]?["medianMs"]?.numberValue != nil)
    #expect(result["timing"]?["minMs"]?.numberValue != nil)
    #expect(result["data"]?["users"]?.arrayValue?.count == 4)
  }
}
