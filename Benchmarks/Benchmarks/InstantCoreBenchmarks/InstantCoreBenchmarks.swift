import Benchmark
import SyntheticData
import Foundation
import InstantCore

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3))

  // The reference "big query" over InstantDB's own zeneca fixture (shared/, beside the repo).
  if let zeneca = loadFixture("zeneca") {
    let query: JSON = ["users": ["bookshelves": ["books": [:], "users": ["bookshelves": [:]]]]]
    Benchmark("big query (zeneca)") { benchmark in
      for _ in benchmark.scaledIterations {
        blackHole(try zeneca.query(query))
      }
    }
  } else {
    print("skipping big query: shared fixtures not found at \(fixtureRoot.path)")
  }

  for items in [10_000, 100_000] {
    let triples = SyntheticStore.triples(items: items)
    let store = TripleStore(attrs: SyntheticStore.attrs, triples: triples)
    Benchmark("where+order+limit+nested (\(items / 1000)k items)") { benchmark in
      for _ in benchmark.scaledIterations {
        blackHole(try store.query(SyntheticStore.query))
      }
    }
    Benchmark(
      "bulk insert (\(items / 1000)k items, \(triples.count / 1000)k triples)",
      configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(5))
    ) { benchmark in
      for _ in benchmark.scaledIterations {
        blackHole(TripleStore(attrs: SyntheticStore.attrs, triples: triples))
      }
    }
  }

}

let fixtureRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("shared/fixtures/instaql")

func loadFixture(_ name: String) -> TripleStore? {
  let folder = fixtureRoot.appendingPathComponent(name)
  guard let attrs = FileManager.default.contents(atPath: folder.appendingPathComponent("attrs.json").path),
    let triples = FileManager.default.contents(atPath: folder.appendingPathComponent("triples.json").path),
    let attrsJSON = try? JSON.parse(bytes: attrs), let triplesJSON = try? JSON.parse(bytes: triples),
    let attrStore = try? AttrStore(json: attrsJSON)
  else { return nil }
  return try? TripleStore(attrs: attrStore, tripleRows: triplesJSON.arrayValue ?? [])
}

