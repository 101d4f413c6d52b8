import Foundation
import InstantCore

/// InstantDB's own test data (zeneca, movies), read from `../shared/fixtures/instaql` beside the
/// package. Suites that need it are disabled with this message when it is absent.
enum Fixtures {
  static let root: URL = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/instaql")
  }()

  static var available: Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent("zeneca/attrs.json").path)
  }

  static let missingMessage = "shared fixtures not found at \(root.path)"

  static func store(_ name: String) throws -> TripleStore {
    let folder = root.appendingPathComponent(name)
    let attrs = try JSON.parse(bytes: try Data(contentsOf: folder.appendingPathComponent("attrs.json")))
    let triples = try JSON.parse(bytes: try Data(contentsOf: folder.appendingPathComponent("triples.json")))
    return try TripleStore(attrs: AttrStore(json: attrs), tripleRows: triples.arrayValue ?? [])
  }
}
