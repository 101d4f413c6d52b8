import Foundation
import Testing
@testable import InstantCore

/// The README's first command, as a newcomer runs it: our own example dataset, no fixtures needed.
@Suite("README commands") struct ReadmeCommandTests {
  @Test("instant-query over Examples/Datasets/todos prints the open todos of each goal") func readmeQuery() async throws {
    let output = try await InstantQueryBatchTests.run(arguments: [
      "--dataset", "Examples/Datasets/todos", #"{"goals":{"todos":{"$":{"where":{"done":false}}}}}"#,
    ])
    #expect(output.status == 0, "stderr: \(output.stderr)")
    let result = try JSON.parse(bytes: output.stdout)
    let goals = try #require(result["data"]?["goals"]?.arrayValue)
    #expect(goals.map { $0["title"] } == ["Get fit", "Learn Swift", "Ship sharing-instant"])
    for goal in goals {
      let todos = try #require(goal["todos"]?.arrayValue)
      #expect(!todos.isEmpty)
      #expect(todos.allSatisfy { $0["done"] == false })
    }
  }

  @Test("a malformed query is refused with a message") func malformedQuery() async throws {
    let output = try await InstantQueryBatchTests.run(arguments: ["--dataset", "Examples/Datasets/todos", "{not json"])
    #expect(output.status != 0)
    #expect(output.stderr.contains("query"))
  }

  @Test("a missing dataset is reported") func missingDataset() async throws {
    let output = try await InstantQueryBatchTests.run(arguments: ["--dataset", "Examples/nowhere", #"{"goals":{}}"#])
    #expect(output.status != 0)
    #expect(String(decoding: output.stdout, as: UTF8.self).contains("no file at"))
  }
}

/// `instant-query --instaml`, the debugging mode that prints the tx-steps ops expand to.
@Suite("instant-query --instaml") struct InstaMLCommandTests {
  @Test("ops on stdin become tx-steps on stdout") func expandsOps() async throws {
    let input = #"""
      [{"attrs": [{"id": "a-gid", "forward-identity": ["f1", "goals", "id"], "value-type": "blob", "cardinality": "one", "unique?": true},
                  {"id": "a-title", "forward-identity": ["f2", "goals", "title"], "value-type": "blob", "cardinality": "one"}],
        "ops": [["update", "goals", "11111111-1111-4111-8111-111111111111", {"title": "Run"}]]},
       {"attrs": [{"id": "a-gid", "forward-identity": ["f1", "goals", "id"], "value-type": "blob", "cardinality": "one", "unique?": true},
                  {"id": "a-title", "forward-identity": ["f2", "goals", "title"], "value-type": "blob", "cardinality": "one"}],
        "ops": [["update", "goals", ["title", "Run"], {"title": "Walk"}]]}]
      """#
    let output = try await InstantQueryBatchTests.run(stdin: Data(input.utf8), arguments: ["--instaml"])
    #expect(output.status == 0, "stderr: \(output.stderr)")
    let results = try #require(JSON.parse(bytes: output.stdout).arrayValue)
    #expect(results.first == ["steps": [
      ["add-triple", "11111111-1111-4111-8111-111111111111", "a-gid", "11111111-1111-4111-8111-111111111111"],
      ["add-triple", "11111111-1111-4111-8111-111111111111", "a-title", "Run"],
    ]])
    #expect(results.last == ["error": "title is not a unique attribute."])
  }
}
