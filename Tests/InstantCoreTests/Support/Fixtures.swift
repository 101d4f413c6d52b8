import Foundation
import Testing
@testable import InstantCore
internal import OrderedCollections

/// The shared InstaQL fixtures (`../shared/fixtures/instaql/{zeneca,movies}` from the package root).
enum Fixture: String {
  case zeneca, movies

  /// `<package root>/../shared/fixtures/instaql`, found from this file's path.
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // InstantCoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .appendingPathComponent("../shared/fixtures/instaql").standardizedFileURL

  static var available: Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent("zeneca/triples.json").path)
      && FileManager.default.fileExists(atPath: root.appendingPathComponent("movies/triples.json").path)
  }

  var directory: URL { Self.root.appendingPathComponent(rawValue) }

  func read(_ file: String) throws -> JSON {
    let url = directory.appendingPathComponent(file)
    let data = try #require(FileManager.default.contents(atPath: url.path), "shared fixtures not found at \(url.path)")
    return try JSON.parse(bytes: data)
  }

  /// The fixture's attrs and triples, read once per process.
  var files: (attrs: JSON, triples: JSON) {
    get throws {
      switch self {
      case .zeneca: return try Self.zenecaFiles.get()
      case .movies: return try Self.moviesFiles.get()
      }
    }
  }

  private static let zenecaFiles = Result { try (Fixture.zeneca.read("attrs.json"), Fixture.zeneca.read("triples.json")) }
  private static let moviesFiles = Result { try (Fixture.movies.read("attrs.json"), Fixture.movies.read("triples.json")) }

  /// A fresh store over the fixture, with optional transaction batches (JSON: a list of lists of steps).
  func store(transactions: String? = nil) throws -> TripleStore {
    let (attrs, triples) = try files
    var store = try TripleStore(attrs: AttrStore(json: attrs), tripleRows: #require(triples.arrayValue))
    if let transactions {
      for batch in try #require(JSON.parse(transactions).arrayValue) {
        try store.transact(#require(batch.arrayValue))
      }
    }
    return store
  }
}

extension Trait where Self == ConditionTrait {
  /// Skips a suite when `../shared/fixtures/instaql` is not next to the package.
  static var fixturesAvailable: Self {
    .enabled(if: Fixture.available, Comment(rawValue: "shared fixtures not found at \(Fixture.root.path)"))
  }
}

/// Runs `query` on a fixture and expects the values of `field` in the top-level rows, in order
/// (`nil` where the row has no such member, `JSON.null` where it is stored as null).
func expectFixture(
  _ fixture: Fixture, _ query: String, field: String, transactions: String? = nil, pageInfo: String? = nil,
  _ expected: [JSON?], sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let store = try fixture.store(transactions: transactions)
  let result = try store.query(JSON.parse(query), pageInfo: pageInfo.map { try JSON.parse($0) })
  let namespaces = try #require(result.data.objectValue)
  let rows = try #require(namespaces.values.first?.arrayValue)
  expectEqual(rows.map { $0[field] }, expected, sourceLocation: sourceLocation)
}

/// Runs `query` on a fixture and expects the whole result (`{"data": …, "pageInfo"?: …}`).
func expectFixtureResult(
  _ fixture: Fixture, _ query: String, transactions: String? = nil, pageInfo: String? = nil, _ expected: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let store = try fixture.store(transactions: transactions)
  let result = try store.query(JSON.parse(query), pageInfo: pageInfo.map { try JSON.parse($0) })
  expectEqual(result.json, try JSON.parse(expected), sourceLocation: sourceLocation)
}
