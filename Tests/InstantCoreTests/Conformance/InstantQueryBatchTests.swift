import Foundation
import Testing
import TestSupport
@testable import InstantCore

/// `instant-query --batch` end to end: the built executable, fed on standard input.
@Suite("instant-query --batch", .fixturesAvailable) struct InstantQueryBatchTests {
  /// The package root (where `../shared/fixtures/instaql` resolves).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The `instant-query` binary beside the test bundle (SwiftPM builds both into the same directory).
  static func executable() throws -> URL {
    var candidates: [URL] = []
    let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    var dir = argv0.deletingLastPathComponent()
    for _ in 0..<4 {
      candidates.append(dir.appendingPathComponent("instant-query"))
      dir = dir.deletingLastPathComponent()
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("instant-query"))
    candidates.append(packageRoot.appendingPathComponent(".build/debug/instant-query"))
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "instant-query not found; looked at \(candidates.map(\.path))")
  }

  struct Output {
    var status: Int32
    var stdout: Data
    var stderr: String
  }

  /// Runs the executable with `input` on its standard input. The waits for the child happen off
  /// the cooperative pool (see `offThePool`).
  static func run(stdin input: Data = Data(), arguments: [String] = ["--batch"]) async throws -> Output {
    var environment = ProcessInfo.processInfo.environment
    environment["INSTAQL_FIXTURES"] = Fixture.root.path
    let process = try SpawnedProcess(
      try executable().path, arguments, environment: environment, directory: packageRoot.path, input: .pipe, output: .pipe,
      error: .pipe)
    let (inPipe, outPipe, errPipe) = (process.standardInput!, process.standardOutput!, process.standardError!)
    // Both outputs are read while the input is written, so a full pipe cannot block the child.
    async let outData = offThePool { outPipe.readDataToEndOfFile() }
    async let errData = offThePool { errPipe.readDataToEndOfFile() }
    try await offThePool {
      inPipe.write(input)
      try inPipe.close()
      process.waitUntilExit()
    }
    return Output(status: process.terminationStatus, stdout: await outData, stderr: String(decoding: await errData, as: UTF8.self))
  }

  @Test("the 15 samples give their expected results, exit status 0") func samples() async throws {
    let input = try #require(FileManager.default.contents(atPath: ConformanceSampleTests.samplesURL.path))
    let samples = try #require(JSON.parse(bytes: input).arrayValue)
    let output = try await Self.run(stdin: input)
    #expect(output.status == 0, "stderr: \(output.stderr)")
    let results = try #require(JSON.parse(bytes: output.stdout).arrayValue)
    try #require(results.count == samples.count)
    for (sample, result) in zip(samples, results) {
      #expect(result == sample["expected"], "sample \(sample["name"]?.stringValue ?? "?")")
    }
  }

  @Test("a case that fails is reported in place, exit status 0") func failingCase() async throws {
    let input = #"[{"dataset":"zeneca","query":{"users":{"$":{"where":{"handle":null}}}}},"#
      + #"{"dataset":"nowhere-\#(UUID())","query":{}},{"dataset":"zeneca","query":{"moopy":{}}}]"#
    let output = try await Self.run(stdin: Data(input.utf8))
    #expect(output.status == 0, "stderr: \(output.stderr)")
    let results = try #require(JSON.parse(bytes: output.stdout).arrayValue)
    #expect(results.count == 3)
    #expect(results[0]["error"]?.stringValue != nil)
    #expect(results[1]["error"]?.stringValue != nil)
    #expect(results[2] == ["data": ["moopy": []]])
  }

  @Test("malformed standard input: non-zero exit and a message on stderr", arguments: [
    "[{\"dataset\": ", "not json", "{\"dataset\": \"zeneca\", \"query\": {}}",
  ])
  func malformedInput(_ input: String) async throws {
    let output = try await Self.run(stdin: Data(input.utf8))
    #expect(output.status != 0)
    #expect(!output.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    #expect(output.stdout.isEmpty)
  }

  /// A has-one link with `on-delete-reverse: cascade` pointing at its own entity. The reference
  /// recurses until JavaScript's stack overflows and `transact` throws "Maximum call stack size
  /// exceeded"; the case result is that error. Run out of process, so a crash would fail the test
  /// rather than the whole run.
  @Test("a cascade cycle is a case error, not a crash") func cascadeCycle() async throws {
    let input = #"""
      [{"attrs": [{"id": "x-id", "forward-identity": ["f1", "x", "id"], "value-type": "blob", "cardinality": "one"},
                  {"id": "x-next", "forward-identity": ["f2", "x", "next"], "reverse-identity": ["r2", "x", "prev"],
                   "value-type": "ref", "cardinality": "one", "on-delete-reverse": "cascade"}],
        "triples": [["00000000-0000-4000-8000-000000000001", "x-id", "00000000-0000-4000-8000-000000000001"],
                    ["00000000-0000-4000-8000-000000000001", "x-next", "00000000-0000-4000-8000-000000000001"]],
        "transactions": [[["delete-entity", "00000000-0000-4000-8000-000000000001", "x"]]],
        "query": {"x": {}}}]
      """#
    let output = try await Self.run(stdin: Data(input.utf8))
    #expect(output.status == 0)
    let results = try #require(JSON.parse(bytes: output.stdout).arrayValue)
    #expect(results == [["error": "Maximum call stack size exceeded"]])
  }

  /// A non-cyclic `on-delete-reverse` chain of 1 000 entities: the reference deletes all of them
  /// (its stack holds ~10 000 frames). Run out of process, so a stack overflow would fail the test
  /// rather than the whole run.
  @Test("a long cascade chain deletes every entity") func longCascadeChain() async throws {
    let ids = (0..<1000).map { String(format: "00000000-0000-4000-8000-%012x", $0) }
    var triples: [JSON] = ids.map { [.string($0), "x-id", .string($0)] }
    for (a, b) in zip(ids, ids.dropFirst()) { triples.append([.string(a), "x-next", .string(b)]) }
    let testCase: JSON = [
      "attrs": [
        ["id": "x-id", "forward-identity": ["f1", "x", "id"], "value-type": "blob", "cardinality": "one"],
        [
          "id": "x-next", "forward-identity": ["f2", "x", "next"], "reverse-identity": ["r2", "x", "prev"],
          "value-type": "ref", "cardinality": "one", "on-delete-reverse": "cascade",
        ],
      ],
      "triples": .array(triples),
      "transactions": [[["delete-entity", .string(ids[0]), "x"]]],
      "query": ["x": ["$": ["fields": []]]],
    ]
    let output = try await Self.run(stdin: Data(JSON.array([testCase]).serialized().utf8))
    #expect(output.status == 0)
    let results = try #require(JSON.parse(bytes: output.stdout).arrayValue)
    #expect(results == [["data": ["x": []]]])
  }

  /// ICU ignores U+200B, U+0001 and U+00AD, so these string-typed values collate equal; the
  /// reference's stable sort then keeps created-at order: entities 1, 2, 3, 4, 5. Every run must
  /// give that order, whatever the process's hash seed.
  @Test("collation ties keep created-at order, run after run") func collationTiesAreDeterministic() async throws {
    let values = ["a\u{200B}", "a", "a\u{01}", "a\u{AD}", "b"]
    var rows: [JSON] = []
    for (i, value) in values.enumerated() {
      let e = JSON.string("00000000-0000-4000-8000-00000000000\(i + 1)")
      rows += [[e, "t-id", e, .number(Double(i))], [e, "t-s", .string(value), .number(Double(i))]]
    }
    let testCase: JSON = [
      "attrs": [
        ["id": "t-id", "forward-identity": ["f1", "t", "id"], "value-type": "blob", "cardinality": "one"],
        ["id": "t-s", "forward-identity": ["f2", "t", "s"], "value-type": "blob", "cardinality": "one", "checked-data-type": "string"],
      ],
      "triples": .array(rows),
      "query": ["t": ["$": ["order": ["s": "asc"], "fields": []]]],
    ]
    let input = Data(JSON.array([testCase]).serialized().utf8)
    let expected: JSON = [["data": ["t": .array((1...5).map { ["id": .string("00000000-0000-4000-8000-00000000000\($0)")] })]]]
    var outputs: [JSON] = []
    for _ in 0..<6 {
      let output = try await Self.run(stdin: input)
      try #require(output.status == 0)
      outputs.append(try JSON.parse(bytes: output.stdout))
    }
    for output in outputs { #expect(output == expected) }
  }
}
