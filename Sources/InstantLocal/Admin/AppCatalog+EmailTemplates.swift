/// Each app's magic-code email: what `instant-local apps email-template set|show|remove` does. A
/// running server reads it at every send, so a change takes effect at once.
extension AppCatalog {
  /// Gives the app `template` (replacing its own).
  ///
  /// - Throws: ``InstantLocalError/invalidApp(_:)`` when there is no such app, or the template
  ///   lacks `{code}` in its subject or body, or its sender is not one address.
  public func setEmailTemplate(appID: String, _ template: EmailTemplate) throws(InstantLocalError) {
    let id = try existingAppID(appID)
    if let problem = template.problems.first { throw .invalidApp(problem) }
    try storage.saveEmailTemplate(id, template)
  }

  /// The app's template; `nil` when it sends the standard one (``EmailTemplate/standard``).
  public func emailTemplate(appID: String) throws(InstantLocalError) -> EmailTemplate? {
    try storage.emailTemplate(try existingAppID(appID))
  }

  /// Removes the app's template: it sends the standard one again.
  ///
  /// - Throws: ``InstantLocalError/invalidApp(_:)`` when there is no such app or it has no template.
  public func removeEmailTemplate(appID: String) throws(InstantLocalError) {
    guard try storage.removeEmailTemplate(try existingAppID(appID)) else {
      throw .invalidApp("app \(appID) has no email template of its own")
    }
  }
}
