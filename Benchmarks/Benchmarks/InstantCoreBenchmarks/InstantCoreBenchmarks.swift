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
    // One benchmark per query shape (small results, LIKE scans, joins, order+limit, paths, or/and,
    // nested includes, a whole namespace): the cases `Benchmarks/Shapes/zeneca-shapes.json` also
    // feeds to `instant-query --batch` and to the JavaScript engine for comparison.
    for (name, query) in zenecaShapes() where name != "big query" {
      Benchmark("shape: \(name) (zeneca)") { benchmark in
        for _ in benchmark.scaledIterations {
          blackHole(try zeneca.query(query))
        }
      }
    }
  } else {
    print("skipping big query and the zeneca shapes: shared fixtures not found at \(fixtureRoot.path)")
  }

  let shapeStore = TripleStore(attrs: SyntheticStore.attrs, triples: SyntheticStore.triples(items: 10_000))
  for (name, query) in SyntheticStore.shapes {
    Benchmark("shape: \(name) (10k items)") { benchmark in
      for _ in benchmark.scaledIterations {
        blackHole(try shapeStore.query(query))
      }
    }
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

/// The named queries of `Benchmarks/Shapes/zeneca-shapes.json` (a batch of conformance cases).
func zenecaShapes() -> [(String, JSON)] {
  let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Shapes/zeneca-shapes.json")
  guard let bytes = FileManager.default.contents(atPath: file.path), let cases = try? JSON.parse(bytes: bytes).arrayValue
  else {
    print("skipping the zeneca shapes: cannot read \(file.path)")
    return []
  }
  return cases.compactMap { c in c["name"]?.stringValue.flatMap { name in c["query"].map { (name, $0) } } }
}

func loadFixture(_ name: String) -> TripleStore? {
  let folder = fixtureRoot.appendingPathComponent(name)
  guard let attrs = FileManager.default.contents(atPath: folder.appendingPathComponent("attrs.json").path),
    let triples = FileManager.default.contents(atPath: folder.appendingPathComponent("triples.json").path),
    let attrsJSON = try? JSON.parse(bytes: attrs), let triplesJSON = try? JSON.parse(bytes: triples),
    let attrStore = try? AttrStore(json: attrsJSON)
  else { return nil }
  return try? TripleStore(attrs: attrStore, tripleRows: triplesJSON.arrayValue ?? [])
}

