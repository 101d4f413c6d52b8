import ArgumentParser
import Foundation
import InstantCore
internal import OrderedCollections

/// `instant-query`: InstantDB's client-side query engine from the command line.
@main
struct InstantQuery: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "instant-query",
    abstract: "Run InstaQL queries over an InstantDB dataset with the reference client's semantics.",
    discussion: """
      Batch mode (conformance): reads a JSON array of cases on standard input and writes one result \
      per case (see shared/conformance/README.md).

      Interactive mode: instant-query --dataset DIR '{"users":{"bookshelves":{}}}'
      A bare dataset name (zeneca, movies) is looked up under $INSTAQL_FIXTURES \
      (default ../shared/fixtures/instaql).
      """)

  @Flag(help: "Read a JSON array of cases from standard input and write their results.")
  var batch = false

  @Flag(
    help: ArgumentHelp(
      "Read InstaML cases ({attrs, stores?, schema?, ops}) from standard input and write their tx-steps.",
      visibility: .hidden))
  var instaml = false

  @Option(help: "A folder with attrs.json and triples.json, or a fixture name (zeneca, movies).")
  var dataset: String?

  @Option(help: "Server page info as JSON ({\"ns\": {\"start-cursor\": …}}).")
  var pageInfo: String?

  @Option(help: "Evaluate the query N times and print timings.")
  var `repeat`: Int?

  @Argument(help: "The InstaQL query as JSON.")
  var query: String?

  mutating func run() throws {
    if batch {
      try runBatch()
      return
    }
    if instaml {
      try runInstaML()
      return
    }
    guard let dataset else { throw ValidationError("give --dataset DIR (or use --batch)") }
    guard let query else { throw ValidationError("give the query as JSON, e.g. '{\"users\":{}}'") }
    var testCase: JSONObject = ["dataset": .string(dataset)]
    do { testCase["query"] = try JSON.parse(query) } catch { throw ValidationError("query: \(error)") }
    if let pageInfo {
      do { testCase["pageInfo"] = try JSON.parse(pageInfo) } catch { throw ValidationError("--page-info: \(error)") }
    }
    if let `repeat` { testCase["repeat"] = .number(Double(`repeat`)) }
    var runner = ConformanceRunner(loadDataset: Self.loadDataset, clock: Self.now)
    let result = runner.run(.object(testCase))
    print(result.serialized(.pretty))
    if result["error"] != nil { throw ExitCode(1) }
  }

  func runBatch() throws {
    let input = FileHandle.standardInput.readDataToEndOfFile()
    let cases: [JSON]
    do {
      guard case let .array(list) = try JSON.parse(bytes: input) else {
        FileHandle.standardError.write(Data("instant-query: standard input must be a JSON array of cases\n".utf8))
        throw ExitCode(2)
      }
      cases = list
    } catch let error as JSONParseError {
      FileHandle.standardError.write(Data("instant-query: \(error)\n".utf8))
      throw ExitCode(2)
    }
    var runner = ConformanceRunner(loadDataset: Self.loadDataset, clock: Self.now)
    let results = cases.map { runner.run($0) }
    FileHandle.standardOutput.write(Data(JSON.array(results).serialized().utf8))
    FileHandle.standardOutput.write(Data("\n".utf8))
  }

  func runInstaML() throws {
    let input = FileHandle.standardInput.readDataToEndOfFile()
    guard case let .array(cases) = try JSON.parse(bytes: input) else { throw ExitCode(2) }
    let results: [JSON] = cases.map { c in
      do {
        let attrs = try AttrStore(json: c["attrs"] ?? .array([]))
        let stores = try (c["stores"]?.arrayValue ?? []).map { rows in
          try TripleStore(attrs: attrs, tripleRows: rows.arrayValue ?? [])
        }
        let schema = try c["schema"].map { try ClientSchema(json: $0) }
        let ops = (c["ops"]?.arrayValue ?? []).map { op -> InstaMLOp in
          let parts = op.arrayValue ?? []
          return InstaMLOp(
            InstaMLOp.Action(rawValue: parts[0].stringValue ?? "") ?? .update, parts[1].stringValue ?? "", parts[2],
            parts.count > 3 ? parts[3] : nil, opts: parts.count > 4 ? parts[4] : nil)
        }
        let steps = try InstaML(attrs: attrs, stores: stores, schema: schema).transform(ops)
        return ["steps": .array(steps)]
      } catch let error as InstaMLError {
        // The reference client's text, which conformance compares.
        return ["error": .string(error.message)]
      } catch {
        return ["error": .string("\(error)")]
      }
    }
    FileHandle.standardOutput.write(Data(JSON.array(results).serialized().utf8))
  }

  static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
  }

  static func loadDataset(_ name: String) throws -> (attrs: JSON, triples: JSON) {
    var folder = name
    if !name.contains("/") && !FileManager.default.fileExists(atPath: name) {
      let root = ProcessInfo.processInfo.environment["INSTAQL_FIXTURES"] ?? "../shared/fixtures/instaql"
      folder = (root as NSString).appendingPathComponent(name)
    }
    func read(_ file: String) throws -> JSON {
      let path = (folder as NSString).appendingPathComponent(file)
      guard let data = FileManager.default.contents(atPath: path) else {
        throw ConformanceError("no file at \(path)")
      }
      return try JSON.parse(bytes: data)
    }
    return (try read("attrs.json"), try read("triples.json"))
  }
}
