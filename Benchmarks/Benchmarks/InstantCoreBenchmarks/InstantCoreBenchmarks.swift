import Benchmark
import Foundation
import InstantCore

#if canImport(Glibc)
  import Glibc
#endif

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

  // Resident bytes per triple with all three indexes: the growth of the process's resident set
  // while the store is built (the input triples already exist), divided by the triple count.
  Benchmark(
    "memory per triple (100k items)",
    configuration: .init(metrics: [.custom("bytes per triple", polarity: .prefersSmaller)], maxIterations: 3)
  ) { benchmark in
    let triples = SyntheticStore.triples(items: 100_000)
    for _ in benchmark.scaledIterations {
      let before = heapInUse()
      let store = TripleStore(attrs: SyntheticStore.attrs, triples: triples)
      let after = heapInUse()
      benchmark.measurement(.custom("bytes per triple"), (after - before) / store.count)
      blackHole(store)
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

/// Resident set size in bytes, from /proc/self/statm (Linux).
func heapInUse() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
