import OrderedCollections

/// Runs conformance cases in the `instant-query --batch` format (`shared/conformance/README.md`):
/// build a store from a dataset, apply transaction batches, run the query, report the result or
/// the error. File access is left to the caller through `loadDataset`.
package struct ConformanceRunner {
  /// Reads a dataset's `attrs.json` and `triples.json` given the case's `dataset` value.
  package typealias DatasetLoader = (String) throws -> (attrs: JSON, triples: JSON)

  let loadDataset: DatasetLoader
  let clock: () -> Double
  private var stores: [String: Result<TripleStore, ConformanceError>] = [:]

  /// - Parameters:
  ///   - loadDataset: reads a named dataset (called once per name).
  ///   - clock: a monotonic time in milliseconds, for `repeat` timings.
  package init(loadDataset: @escaping DatasetLoader, clock: @escaping () -> Double) {
    self.loadDataset = loadDataset
    self.clock = clock
  }

  /// The result object for one case: `{"data": …}` (+ `"pageInfo"`, `"timing"`) or `{"error": …}`.
  package mutating func run(_ testCase: JSON) -> JSON {
    do {
      return try evaluate(testCase)
    } catch {
      return ["error": .string(error.description)]
    }
  }

  mutating func store(for testCase: JSON) throws(ConformanceError) -> TripleStore {
    if case let .string(name)? = testCase["dataset"] {
      if stores[name] == nil {
        stores[name] = Result { () throws(ConformanceError) -> TripleStore in
          let loaded: (attrs: JSON, triples: JSON)
          do { loaded = try loadDataset(name) } catch { throw ConformanceError("cannot read dataset \(name): \(error)") }
          return try Self.build(attrs: loaded.attrs, triples: loaded.triples)
        }
      }
      return try stores[name]!.get()
    }
    guard let attrs = testCase["attrs"], let triples = testCase["triples"] else {
      throw ConformanceError("case has neither \"dataset\" nor \"attrs\" and \"triples\"")
    }
    return try Self.build(attrs: attrs, triples: triples)
  }

  static func build(attrs: JSON, triples: JSON) throws(ConformanceError) -> TripleStore {
    let attrStore: AttrStore
    do { attrStore = try AttrStore(json: attrs) } catch { throw ConformanceError("invalid attrs: \(error)") }
    guard case let .array(rows) = triples else { throw ConformanceError("triples must be an array") }
    do { return try TripleStore(attrs: attrStore, tripleRows: rows) } catch {
      throw ConformanceError("invalid triples: \(error)")
    }
  }

  mutating func evaluate(_ testCase: JSON) throws(ConformanceError) -> JSON {
    guard case .object = testCase else { throw ConformanceError("a case must be an object") }
    var store = try store(for: testCase)
    store.cardinalityInference = JSValue(testCase["cardinalityInference"]).isTruthy
    if let linkIndex = testCase["linkIndex"] { store.attrs.linkIndex = linkIndex }
    if let transactions = testCase["transactions"] {
      guard case let .array(batches) = transactions else { throw ConformanceError("transactions must be an array") }
      for batch in batches {
        guard case let .array(steps) = batch else { throw ConformanceError("each transaction must be a list of steps") }
        do { try store.transact(steps) } catch { throw ConformanceError(error.message) }
      }
    }
    guard let query = testCase["query"] else { throw ConformanceError("case has no \"query\"") }
    let pageInfo = testCase["pageInfo"]
    let repeatCount = max(1, testCase["repeat"]?.intValue ?? 1)
    var result: InstaQLResult
    do { result = try store.query(query, pageInfo: pageInfo) } catch { throw ConformanceError(error.message) }
    var json = result.json
    if testCase["repeat"] != nil {
      var samples: [Double] = []
      samples.reserveCapacity(repeatCount)
      for _ in 0..<repeatCount {
        let start = clock()
        do { result = try store.query(query, pageInfo: pageInfo) } catch { throw ConformanceError(error.message) }
        samples.append(clock() - start)
      }
      samples.sort()
      if case var .object(o) = json {
        o["timing"] = ["medianMs": .number(samples[samples.count / 2]), "minMs": .number(samples[0])]
        json = .object(o)
      }
    }
    return json
  }
}

/// Why a conformance case could not be evaluated.
package struct ConformanceError: Error, CustomStringConvertible, Sendable {
  package var description: String
  package init(_ description: String) { self.description = description }
}
