import ArgumentParser
import Foundation
import InstantLocal

/// `instant-local backup`: an app as a zip in InstantDB's backup layout.
struct Backup: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write an app to a backup in InstantDB's format (a self-hosted Instant restores it).",
    discussion: "Safe while a server runs on the data file: the copy is read in one transaction, and writes go on.")

  @Option(help: "The app's id.")
  var app: String

  @Option(help: "The zip file to write.")
  var out: String

  @OptionGroup var data: Apps.DataOption

  func run() throws {
    let report = try data.catalog().backup(appID: app, to: URL(fileURLWithPath: out))
    let entities = report.counts.values.reduce(0, +)
    print("backed up app \(report.appID) to \(out): \(entities) entities in \(report.counts.count) namespaces, \(report.files) files")
  }
}

/// `instant-local restore`: a new app from a backup.
struct Restore: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Make an app from a backup (one downloaded from Instant, or written by `instant-local backup`).",
    discussion: """
      The whole archive is checked first: a problem is reported with the entry and line it is at, and \
      nothing is restored. Users sign in again (a backup carries no sessions); the new app gets a new admin token.
      """)

  @Argument(help: "The backup (.zip).")
  var archive: String

  @Option(help: "The new app's id (by default the backup's, or a new one if this data file has that app).")
  var app: String?

  @Option(help: "The new app's title (by default the backup's).")
  var title: String?

  @OptionGroup var data: Apps.DataOption

  func run() throws {
    let report = try data.catalog().restore(from: URL(fileURLWithPath: archive), appID: app, title: title)
    let entities = report.counts.values.reduce(0, +)
    var lines = [
      "restored \(entities) entities in \(report.counts.count) namespaces and \(report.files) files",
      "app id:      \(report.app.id)",
      "admin token: \(report.app.adminToken)",
    ]
    if !report.skipped.isEmpty {
      let skipped = report.skipped.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
      lines.append("not restored (instant-local does not keep them): \(skipped)")
    }
    if report.emailTemplate {
      lines.append("magic-code email restored")
    }
    if !report.redirectOrigins.isEmpty {
      lines.append("redirect origins restored: \(report.redirectOrigins.map(\.value).joined(separator: ", "))")
    }
    for skipped in report.skippedRedirectOrigins {
      lines.append("redirect origin not restored: \(skipped)")
    }
    if !report.oauthClients.isEmpty {
      lines.append("OAuth clients restored, without secrets: \(report.oauthClients.joined(separator: ", "))")
    }
    lines += report.oauthNotes
    print(lines.joined(separator: "\n"))
  }
}
