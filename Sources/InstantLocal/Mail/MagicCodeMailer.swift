import InstantCore
import Logging

/// Delivers magic codes: by SMTP with the app's template (``EmailTemplate``) when the server has
/// a mailer (``InstantLocalConfiguration/mail``); otherwise the code was logged when it was made
/// (development) and nothing is sent.
struct MagicCodeMailer: Sendable {
  let storage: LocalStorage
  let smtp: SMTPClient?
  let expiry: Duration
  let logger: Logger
  var metrics: ServerMetrics?

  /// Mails `code` to `email` for the app. A failure is logged (without the code) and answered as
  /// the reference answers it: `email-send-failed`, 500.
  func deliver(code: String, to email: String, appID: String, appTitle: String) async throws(ServerError) {
    guard let smtp else { return }
    let template: EmailTemplate
    do {
      template = try storage.emailTemplate(appID) ?? .standard
    } catch {
      throw .serverFault("The app's email template could not be read: \(error)")
    }
    let message = template.message(
      code: code, to: email, appTitle: appTitle, expiry: expiry, sender: smtp.configuration.from)
    do {
      try await smtp.send(message)
      metrics?.mail(sent: true)
      logger.info("magic code emailed", metadata: ["app_id": "\(appID)", "to": "\(email)"])
    } catch {
      metrics?.mail(sent: false)
      logger.error("magic code email not sent", metadata: ["app_id": "\(appID)", "to": "\(email)", "error": "\(error)"])
      throw ServerError("email-send-failed", message: "We weren't able to send the email.", status: 500)
    }
  }
}
