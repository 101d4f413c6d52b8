import Foundation
import InstantAdmin
import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing
import ZIPFoundation
internal import OrderedCollections

/// A backup written by InstantDB itself, restored and queried, then backed up again: every
/// entity, attribute and link as the archive has them, and the same entity lines out.
///
/// The archive is not ours to commit. Point `INSTANT_REFERENCE_BACKUP` at one: an app downloaded
/// from Instant (`instant-cli backup download`), or `server/dev-resources/zeneca-backup.zip` of
/// the instantdb/instant repository. Without it the test says so and checks nothing.
@Suite("A backup made by InstantDB", .timeLimit(.minutes(10)))
struct InstantArchiveTests {
  static var archive: URL? {
    ProcessInfo.processInfo.environment["INSTANT_REFERENCE_BACKUP"].map { URL(fileURLWithPath: $0) }
  }

  @Test(
    "Restore, query every entity and link, sign a user in, back up again: the same entities",
    .enabled(if: archive != nil, "set INSTANT_REFERENCE_BACKUP to a backup made by InstantDB to run it"))
  func restoreAndBackUpAgain() async throws {
    let archive = try #require(Self.archive)
    try await BackupRestoreTests.withDirectory { directory in
      let original = try BackupRestoreTests.entries(archive)
      let config = try JSON.parse(bytes: try #require(original["config.json"]))
      let file = directory.appendingPathComponent("restored.sqlite").path
      let report = try AppCatalog(dataFile: file).restore(from: archive)
      let again = directory.appendingPathComponent("again.zip")
      try await withInstantLocal(configuration: .testing(dataFile: file)) { server in
        let admin = InstantAdmin(appID: report.app.id, adminToken: report.app.adminToken, apiURI: try #require(await server.baseURL))
        let links = config["schema"]?["links"]?.objectValue ?? [:]
        for (name, data) in original where name.hasPrefix("entities/") && name.hasSuffix(".jsonl") {
          let namespace = String(name.dropFirst("entities/".count).dropLast(".jsonl".count))
          guard report.counts[namespace] != nil else { continue }  // $streams and other skipped system namespaces
          let labels = links.values.flatMap { link -> [String] in
            [("forward", "reverse"), ("reverse", "forward")].compactMap { side, _ in
              link[side]?["on"]?.stringValue == namespace ? link[side]?["label"]?.stringValue : nil
            }
          }
          var form: JSONObject = [:]
          for label in labels { form[label] = ["$": ["fields": ["id"]]] }
          let rows = try await admin.query(.object([namespace: .object(form)]))[namespace]?.arrayValue ?? []
          let got = Dictionary(rows.compactMap { row in row["id"]?.stringValue.map { ($0, row) } }) { a, _ in a }
          var expected = 0
          for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let entity = try #require(try JSON.parse(String(line))["entity"]?.objectValue)
            let id = try #require(entity["id"]?.stringValue)
            expected += 1
            let row = try #require(got[id], "\(namespace) \(id) was not restored")
            for (key, value) in entity where !labels.contains(key) {
              #expect(row[key] == (value == .null ? nil : value), "\(namespace) \(id) \(key)")
            }
            for label in labels where entity[label] != nil {
              let want = Set((entity[label]?.arrayValue ?? [entity[label]!]).compactMap(\.stringValue))
              let have = Set((row[label]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
              #expect(have == want, "\(namespace) \(id) \(label)")
            }
          }
          #expect(got.count == expected, "\(namespace)")
        }
        // A user signs in again with their id.
        if let email = try await admin.query(["$users": [:]])["$users"]?[0]?["email"]?.stringValue {
          let before = try #require(try await admin.user(.email(email)))
          let code = try await admin.generateMagicCode(email: email)
          let signedIn = try await admin.verifyMagicCode(email: email, code: code)
          #expect(signedIn.id == before.id)
        }
        try server.apps.backup(appID: report.app.id, to: again)
      }
      // Backed up again: the same entity lines, by id (the order of link ids aside).
      let rewritten = try BackupRestoreTests.entries(again)
      for (name, data) in original where name.hasPrefix("entities/") {
        guard let ours = rewritten[name] else {
          #expect(report.counts[String(name.dropFirst("entities/".count).dropLast(".jsonl".count))] == nil, "\(name) is missing")
          continue
        }
        #expect(try Self.lines(data) == Self.lines(ours), "\(name) differs")
      }
    }
  }

  /// An entities file's lines by entity id, link arrays sorted.
  static func lines(_ data: Data) throws -> [String: JSON] {
    var out: [String: JSON] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      var object = try JSON.parse(String(line)).objectValue ?? [:]
      var entity = object["entity"]?.objectValue ?? [:]
      for (key, value) in entity {
        if case let .array(items) = value { entity[key] = .array(items.sorted { $0.serialized() < $1.serialized() }) }
      }
      object["entity"] = .object(entity)
      out[entity["id"]?.stringValue ?? ""] = .object(object)
    }
    return out
  }
}
