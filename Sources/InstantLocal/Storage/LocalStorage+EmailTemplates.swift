import GRDB

/// Each app's magic-code email (``EmailTemplate``).
extension LocalStorage {
  /// Gives the app `template` (replacing its own).
  func saveEmailTemplate(_ appID: String, _ template: EmailTemplate) throws(InstantLocalError) {
    try run("save the email template of app \(appID)") { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO email_templates (app_id, subject, body, sender_email, sender_name) VALUES (?, ?, ?, ?, ?)",
        arguments: [appID, template.subject, template.body, template.senderEmail, template.senderName])
    }
  }

  /// The app's template, if it has one.
  func emailTemplate(_ appID: String) throws(InstantLocalError) -> EmailTemplate? {
    try run("read the email template of app \(appID)") { db in
      try Row.fetchOne(
        db, sql: "SELECT subject, body, sender_email, sender_name FROM email_templates WHERE app_id = ?", arguments: [appID]
      ).map { EmailTemplate(subject: $0[0], body: $0[1], senderEmail: $0[2], senderName: $0[3]) }
    }
  }

  /// Removes the app's template; false when it had none.
  func removeEmailTemplate(_ appID: String) throws(InstantLocalError) -> Bool {
    try run("remove the email template of app \(appID)") { db in
      try db.execute(sql: "DELETE FROM email_templates WHERE app_id = ?", arguments: [appID])
      return db.changesCount > 0
    }
  }
}
