import Foundation
import InstantCore

/// An app's magic-code email, as InstantDB's dashboard sets it (and its backups carry it): a
/// subject and an HTML body with the variables `{code}`, `{app_title}`, `{user_email}` and
/// `{expiration}`, and an optional sender.
public struct EmailTemplate: Sendable, Equatable {
  public var subject: String
  /// HTML; the values put in for its variables are HTML-escaped (the subject's are not).
  public var body: String
  /// The address the email comes from (and replies go to); the server's sender when `nil`.
  public var senderEmail: String?
  /// The name it comes from; the app's title when `nil`.
  public var senderName: String?

  public init(subject: String, body: String, senderEmail: String? = nil, senderName: String? = nil) {
    self.subject = subject
    self.body = body
    self.senderEmail = senderEmail
    self.senderName = senderName
  }

  /// The reference server's email for an app without a template of its own.
  public static let standard = EmailTemplate(
    subject: "{code} is your verification code for {app_title}",
    body: """
      <div style='background:#f6f6f6;font-family:Helvetica,Arial,sans-serif;line-height:1.6;font-size:18px'>\
      <div style='max-width:650px;margin:0 auto;background:white;padding:20px'>\
      <p><strong>Welcome,</strong></p>\
      <p>You asked to join {app_title}. To complete your registration, use this verification code:</p>\
      <h2 style="text-align: center"><strong>{code}</strong></h2>\
      <p>Copy and paste this into the confirmation box, and you'll be on your way.</p>\
      <p>Note: This code will expire in {expiration}, and can only be used once. If you didn't request \
      this code, please reply to this email.</p>\
      </div></div>
      """)

  /// Why a template cannot be used: each names what to fix. Empty when it can.
  public var problems: [String] {
    var problems: [String] = []
    if !subject.contains("{code}") { problems.append("Subject does not contain template variable: '{code}'") }
    if !body.contains("{code}") { problems.append("Body does not contain template variable: '{code}'") }
    if subject.contains("\n") || subject.contains("\r") { problems.append("The subject is one line") }
    if let senderEmail, !MailAddress(email: senderEmail).isValid { problems.append("The sender is not one email address: \(senderEmail)") }
    return problems
  }

  /// The email that sends `code` to `email` for the app titled `appTitle`, from `sender`'s address
  /// unless the template names its own, under the template's sender name or else the app's title
  /// (as the reference names it).
  func message(code: String, to email: String, appTitle: String, expiry: Duration, sender: MailAddress) -> MailMessage {
    let values = [
      "code": code, "app_title": appTitle, "user_email": email, "expiration": Self.expiration(expiry),
    ]
    func render(_ text: String, escaping: Bool) -> String {
      values.reduce(text) { text, value in
        text.replacingOccurrences(of: "{\(value.key)}", with: escaping ? Self.escapeHTML(value.value) : value.value)
      }
    }
    let html = render(body, escaping: true)
    let from = MailAddress(email: senderEmail ?? sender.email, name: senderName ?? appTitle)
    return MailMessage(
      from: from, to: MailAddress(email: email), replyTo: senderEmail.map { MailAddress(email: $0) },
      subject: render(subject, escaping: false), text: Self.plainText(html), html: html)
  }

  /// `24 hours`, `1 hour`, `30 minutes`, as the reference writes `{expiration}`.
  static func expiration(_ expiry: Duration) -> String {
    let minutes = Int(expiry.components.seconds / 60)
    if minutes >= 60 { return minutes / 60 == 1 ? "1 hour" : "\(minutes / 60) hours" }
    return minutes == 1 ? "1 minute" : "\(minutes) minutes"
  }

  static func escapeHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "'", with: "&#39;")
  }

  /// The text part beside the HTML: block ends become line breaks, tags go, entities are read.
  static func plainText(_ html: String) -> String {
    var text = html
    for tag in ["</p>", "</h1>", "</h2>", "</h3>", "</div>", "<br>", "<br/>", "<br />"] {
      text = text.replacingOccurrences(of: tag, with: "\n", options: .caseInsensitive)
    }
    text = text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
    for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")] {
      text = text.replacingOccurrences(of: entity, with: character)
    }
    return text.split(separator: "\n", omittingEmptySubsequences: true)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n\n")
  }

  /// The reference's backup entry (`config.json` `emailTemplates`).
  var backupJSON: JSON {
    [
      "type": "magic-code", "subject": .string(subject), "body": .string(body),
      "name": senderName.map(JSON.string) ?? .null, "email": senderEmail.map(JSON.string) ?? .null,
    ]
  }

  /// A magic-code template from a backup entry, with its sender (an address that is not one is
  /// left out); `nil` for another type, or one this server could not send (no `{code}`).
  init?(backupJSON entry: JSON) {
    guard entry["type"]?.stringValue == "magic-code", let subject = entry["subject"]?.stringValue,
      let body = entry["body"]?.stringValue
    else { return nil }
    let sender = entry["email"]?.stringValue.flatMap { MailAddress(email: $0).isValid ? $0 : nil }
    self.init(subject: subject, body: body, senderEmail: sender, senderName: entry["name"]?.stringValue)
    guard problems.isEmpty else { return nil }
  }
}
