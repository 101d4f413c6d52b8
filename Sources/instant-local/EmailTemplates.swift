import ArgumentParser
import Foundation
import InstantLocal

/// `instant-local apps email-template`: an app's magic-code email.
struct EmailTemplates: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "email-template",
    abstract: "Set, show or remove an app's magic-code email (subject, HTML body, sender).",
    discussion: """
      The subject and body must contain {code}; {app_title}, {user_email} and {expiration} are \
      filled in too (in the body HTML-escaped). Without a template of its own an app sends \
      InstantDB's standard email.
      """,
    subcommands: [Set.self, Show.self, Remove.self])

  struct Set: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Give an app its own magic-code email.")
    @Option(help: "The app's id.") var app: String
    @Option(help: "The subject, with {code}.") var subject: String
    @Option(help: "A file holding the HTML body, with {code}.") var bodyFile: String
    @Option(help: "The address it comes from (and replies go to); the server's --mail-from by default.") var senderEmail: String?
    @Option(help: "The name it comes from; the app's title by default.") var senderName: String?
    @OptionGroup var data: Apps.DataOption

    func run() throws {
      guard let body = try? String(contentsOfFile: bodyFile, encoding: .utf8) else {
        throw ValidationError("--body-file: cannot read \(bodyFile)")
      }
      let template = EmailTemplate(subject: subject, body: body, senderEmail: senderEmail, senderName: senderName)
      try data.catalog().setEmailTemplate(appID: app, template)
      print("app \(app): magic-code email set (subject: \(subject))")
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print an app's magic-code email.")
    @Option(help: "The app's id.") var app: String
    @OptionGroup var data: Apps.DataOption

    func run() throws {
      let own = try data.catalog().emailTemplate(appID: app)
      let template = own ?? .standard
      print(own == nil ? "app \(app) sends the standard email" : "app \(app) sends its own email")
      print("subject: \(template.subject)")
      if let sender = template.senderEmail { print("sender:  \(template.senderName.map { "\($0) " } ?? "")<\(sender)>") }
      print("body:\n\(template.body)")
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove an app's own email: it sends the standard one.")
    @Option(help: "The app's id.") var app: String
    @OptionGroup var data: Apps.DataOption

    func run() throws {
      try data.catalog().removeEmailTemplate(appID: app)
      print("app \(app): email template removed (the standard one is sent)")
    }
  }
}
