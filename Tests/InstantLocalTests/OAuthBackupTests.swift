import Foundation
import InstantBackup
import InstantCore
internal import OrderedCollections
@testable import InstantLocal
import Testing
import TestSupport

/// An app's OAuth providers and clients through backup and restore (docs/backups.md, "OAuth
/// providers and clients"): as InstantDB's `$oauthProviders` and `$oauthClients`, never with a secret.
@Suite("OAuth providers and clients in backups", .timeLimit(.minutes(10)))
struct OAuthBackupTests {
  /// A data file of its own, removed at the end.
  struct Scratch {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-backup-\(UUID().uuidString)")
    func dataFile(_ name: String) -> String { directory.appendingPathComponent("\(name).sqlite").path }
    func archive(_ name: String) -> URL { directory.appendingPathComponent("\(name).zip") }
    func remove() { try? FileManager.default.removeItem(at: directory) }
    init() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
  }

  static let secrets = ["google-secret-7f3a9c", "clerk-secret-51d2e8"]

  static func clients() -> [OAuthClient] {
    [
      OAuthClient(
        name: "google-web", provider: .google, clientID: "123.apps.googleusercontent.com",
        audiences: ["123-ios.apps.googleusercontent.com"], clientSecret: secrets[0]),
      OAuthClient(name: "apple-native", provider: .apple, clientID: "com.example.app.web", appleTeamID: "TEAM123", appleKeyID: "KEY456"),
      OAuthClient(
        name: "clerk", provider: .oidc, clientID: "clerk-client",
        discoveryEndpoint: URL(string: "https://clerk.example.com/.well-known/openid-configuration"), clientSecret: secrets[1],
        providerName: "clerk"),
    ]
  }

  @Test("Providers and clients are written as InstantDB's $oauthProviders and $oauthClients, with the admin API's ids and no secret, and restore whole but for the secret")
  func roundTrip() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let catalog = try AppCatalog(dataFile: scratch.dataFile("source"))
    let app = try catalog.create(title: "Signs in")
    for client in Self.clients() { try catalog.addOAuthClient(appID: app.id, client) }
    try catalog.addOAuthProvider(appID: app.id, name: "okta")
    let archive = scratch.archive("first")
    try catalog.backup(appID: app.id, to: archive)

    // The archive: InstantDB's namespaces and system attr ids, the admin API's entity ids, no secret.
    let plan = try BackupReader(systemAttrs: SystemCatalog.attrs + OAuthBackup.attrs).read(archive)
    #expect(plan.entityCounts["$oauthClients"] == 3)
    #expect(plan.entityCounts["$oauthProviders"] == 4, "google, apple, clerk and okta (a provider without clients)")
    let everything = plan.triples.map { $0.value.serialized() }.joined(separator: "\n") + JSON.object(plan.config).serialized()
    for secret in Self.secrets { #expect(!everything.contains(secret), "a client secret is in the backup") }
    #expect(!plan.triples.contains { $0.attr == SystemCatalog.systemID(.attr, "oc", "encclisec") })
    let clientIDAttr = SystemCatalog.systemID(.attr, "oc", "id")
    #expect(
      Set(plan.triples.filter { $0.attr == clientIDAttr }.map(\.entity))
        == Set(["google-web", "apple-native", "clerk"].map { AuthSettingID.client(app.id, $0) }))
    let schema = plan.config["schema"]?["entities"]?.objectValue?.keys.map { $0 } ?? []
    #expect(!schema.contains { $0.hasPrefix("$oauth") }, "InstantDB's schema leaves system namespaces out, and so does ours")
    let meta = try #require(plan.triples.first { $0.attr == SystemCatalog.systemID(.attr, "oc", "meta") && $0.entity == AuthSettingID.client(app.id, "apple-native") })
    #expect(meta.value == ["teamId": "TEAM123", "keyId": "KEY456"], "Apple's team and key ids are in meta, as InstantDB keeps them")

    // Restored under the same app id into another data file: the same clients, without secrets.
    let restoredCatalog = try AppCatalog(dataFile: scratch.dataFile("restored"))
    let report = try restoredCatalog.restore(from: archive)
    #expect(report.app.id == app.id)
    #expect(report.oauthClients == ["apple-native", "clerk", "google-web"])
    #expect(report.oauthProviders == ["apple", "clerk", "google", "okta"])
    #expect(report.oauthNotes.isEmpty, "\(report.oauthNotes)")
    #expect(report.counts["$oauthClients"] == nil && report.skipped["$oauthClients"] == nil, "kept as clients, not as entities")
    var expected = Self.clients().sorted { $0.name < $1.name }
    for i in expected.indices { expected[i].clientSecret = nil }
    #expect(try restoredCatalog.oauthClients(appID: app.id) == expected)
    #expect(try restoredCatalog.oauthProviders(appID: app.id) == ["apple", "clerk", "google", "okta"])
    #expect(
      try restoredCatalog.oauthClients(appID: app.id).map { $0.json(appID: app.id)["id"] }
        == expected.map { $0.json(appID: app.id)["id"] }, "the admin API's ids survive")
    let stored = try #require(try restoredCatalog.storage.snapshot(app.id, whileReading: nil))
    #expect(!stored.triples.contains { OAuthBackup.holds($0.attr) }, "no entities are made")

    // And a backup of the restored app holds the same lines.
    let second = scratch.archive("second")
    try restoredCatalog.backup(appID: app.id, to: second)
    let again = try BackupReader(systemAttrs: SystemCatalog.attrs + OAuthBackup.attrs).read(second)
    let oauth = { (plan: RestorePlan) in Set(plan.triples.filter { OAuthBackup.holds($0.attr) }.map { "\($0.entity) \($0.attr) \($0.value.serialized())" }) }
    #expect(oauth(again) == oauth(plan))
  }

  @Test("A backup from InstantDB: an encrypted secret, shared credentials, redirectTo, GitHub and OAuth codes are each named, not restored")
  func fromInstant() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    func attr(_ etype: String, _ label: String) -> String {
      let found = OAuthBackup.attrs.first { $0.forwardIdentity.etype == etype && $0.forwardIdentity.label == label }
      return found!.id
    }
    let linkAttrs = [
      Attr(
        id: UUID().uuidString.lowercased(), forward: Ident(id: UUID().uuidString.lowercased(), etype: "$oauthUserLinks", label: "id"),
        unique: true, indexed: true, extra: ["catalog": "system"]),
      Attr(
        id: UUID().uuidString.lowercased(), forward: Ident(id: UUID().uuidString.lowercased(), etype: "$oauthUserLinks", label: "sub"),
        extra: ["catalog": "system"]),
    ]
    let ids = (0..<9).map { _ in UUID().uuidString.lowercased() }
    let (google, github, clerk, apple) = (ids[0], ids[1], ids[2], ids[3])
    var triples: [Triple] = []
    for (id, name) in [(google, "google"), (github, "github"), (clerk, "clerk"), (apple, "apple")] {
      triples += [Triple(id, attr("$oauthProviders", "id"), .string(id)), Triple(id, attr("$oauthProviders", "name"), .string(name))]
    }
    func client(_ id: String, _ provider: String, _ name: String, _ fields: [String: JSON]) {
      triples += [
        Triple(id, attr("$oauthClients", "id"), .string(id)), Triple(id, attr("$oauthClients", "$oauthProvider"), .string(provider)),
        Triple(id, attr("$oauthClients", "name"), .string(name)),
      ]
      for (label, value) in fields { triples.append(Triple(id, attr("$oauthClients", label), value)) }
    }
    client(ids[4], google, "web", [
      "clientId": "web.apps.googleusercontent.com", "encryptedClientSecret": "a1b2c3d4e5f6",
      "redirectTo": "https://api.example.com/oauth/callback",
      "discoveryEndpoint": "https://accounts.google.com/.well-known/openid-configuration", "useSharedCredentials": false,
    ])
    client(ids[5], google, "shared", ["useSharedCredentials": true, "discoveryEndpoint": "https://accounts.google.com/.well-known/openid-configuration"])
    client(ids[6], github, "gh", ["clientId": "Iv1.abc", "encryptedClientSecret": "ffee"])
    client(ids[7], clerk, "clerk", ["clientId": "clerk-client"])
    client(ids[8], apple, "apple-native", [
      "clientId": "com.example.app", "meta": ["teamId": "T1", "keyId": "K1"],
      "discoveryEndpoint": "https://appleid.apple.com/.well-known/openid-configuration",
    ])
    let link = UUID().uuidString.lowercased()
    triples += [Triple(link, linkAttrs[0].id, .string(link)), Triple(link, linkAttrs[1].id, "google-sub-1")]
    let archive = scratch.archive("instant")
    var writer = BackupWriter(
      attrs: SystemCatalog.attrs + OAuthBackup.attrs + linkAttrs, triples: triples, rules: nil, title: "From Instant",
      appID: UUID().uuidString.lowercased(), backupAt: Date(), blobURL: { _ in nil })
    writer.emailTemplates = [["type": "magic-code", "subject": "{code}", "body": "<p>{code}</p>", "name": "Shop", "email": "not an address"]]
    _ = try writer.write(to: archive)

    let catalog = try AppCatalog(dataFile: scratch.dataFile("restored"))
    let report = try catalog.restore(from: archive)
    #expect(report.oauthClients == ["apple-native", "web"])
    #expect(report.oauthProviders == ["apple", "clerk", "google"])
    #expect(report.skipped == ["$oauthUserLinks": 1], "users sign in again and are linked by email")
    let notes = report.oauthNotes.joined(separator: "\n")
    for (client, why) in [
      ("web:", "client secret is not restored"), ("web:", "redirectTo (https://api.example.com/oauth/callback) is not kept"),
      ("shared not restored", "shared google credentials"), ("gh not restored", "GitHub is not one"),
      ("clerk not restored", "discovery endpoint"), ("provider github not restored", "GitHub"),
    ] {
      #expect(report.oauthNotes.contains { $0.contains(client) && $0.contains(why) }, "no note says \(client) … \(why): \(notes)")
    }
    #expect(report.oauthNotes.count == 6, "\(notes)")
    let restored = try catalog.oauthClients(appID: report.app.id)
    let web = try #require(restored.first { $0.name == "web" })
    #expect(web.provider == .google && web.clientID == "web.apps.googleusercontent.com" && web.clientSecret == nil)
    #expect(web.discoveryEndpoint == nil, "Google's own endpoint is the provider's, not stored")
    #expect(
      try catalog.emailTemplate(appID: report.app.id) == EmailTemplate(subject: "{code}", body: "<p>{code}</p>", senderName: "Shop"),
      "a sender that is not an address is left out, and the email kept")
    let appleClient = try #require(restored.first { $0.name == "apple-native" })
    #expect(appleClient.provider == .apple && appleClient.appleTeamID == "T1" && appleClient.appleKeyID == "K1")
  }

  @Test("System ids are InstantDB's: the encoder gives every hard-coded $users and $files id")
  func systemIDs() {
    let codes: [String: String] = [
      "$users": "us", "$files": "fi", "id": "id", "email": "email", "type": "type", "imageURL": "imageurl",
      "linkedPrimaryUser": "lpu", "linkedGuestUsers": "lgu", "path": "path", "size": "size", "content-type": "ctype",
      "content-disposition": "cdisp", "location-id": "lid", "key-version": "kv", "url": "url",
    ]
    for attr in SystemCatalog.attrs {
      let f = attr.forwardIdentity
      guard let etype = codes[f.etype], let label = codes[f.label] else {
        Issue.record("no code for \(f.etype).\(f.label)")
        continue
      }
      #expect(SystemCatalog.systemID(.attr, etype, label) == attr.id, "\(attr.qualifiedName)")
      #expect(SystemCatalog.systemID(.ident, etype, label) == f.id, "\(attr.qualifiedName)")
      if let r = attr.reverseIdentity, let label = codes[r.label] {
        #expect(SystemCatalog.systemID(.ident, codes[r.etype] ?? "", label) == r.id)
      }
    }
  }
}
