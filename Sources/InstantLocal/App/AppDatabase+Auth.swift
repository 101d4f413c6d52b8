import Foundation
import InstantCore
import InstantPermissions
import Logging
import OrderedCollections

/// Auth (docs/protocol.md, "Auth over HTTP"): users are `$users` entities written with system permission; refresh
/// tokens live in SQLite next to them; magic codes are kept in memory as hashes (``MagicCodes``).
extension AppDatabase {
  /// `$users` labels that `extra-fields` may not set.
  static let systemUserFields: Set<String> = ["id", "email", "type", "imageURL", "linkedPrimaryUser"]

  /// `POST /runtime/auth/sign_in_guest`.
  func signInGuest(extraFields: JSON?) throws(ServerError) -> JSON {
    let userID = UUID().uuidString.lowercased()
    var steps: [TxStep] = [
      .addTriple(.string(userID), .string(SystemCatalog.usersID), .string(userID)),
      .addTriple(.string(userID), .string(SystemCatalog.usersType), "guest"),
    ]
    steps += try extraFieldSteps(userID, extraFields)
    try checkSignup(userID, ["type": "guest"], extraFields)
    let token = try createUser(steps: steps, userID: userID)
    return ["user": userObject(userID, refreshToken: token) ?? .null]
  }

  /// A new magic code for `email` (docs/instant-local.md, "Magic codes"); `limited` counts it
  /// against the email's sends this hour (all but the admin's `magic_code`). Kept as a hash; also
  /// as sent, and logged, only when the server mails none (development).
  func issueMagicCode(email rawEmail: String, limited: Bool) throws(ServerError) -> String {
    let email = Self.normalize(rawEmail)
    // One address or nothing: a line break would put headers or commands in the email.
    guard MailAddress(email: email).isValid else { throw .paramMalformed("email", input: .string(rawEmail)) }
    let code: String
    do {
      code = try magicCodes.issue(for: email, now: clock.now, limited: limited)
    } catch {
      throw Self.refusal(error, email: email)
    }
    if magicCodes.keepsPlainCodes {
      logger.notice("magic code for \(email): \(code) (no mailer configured: codes are logged)")
    }
    return code
  }

  /// The last magic code sent to `email`, when the server mails none (else `nil`).
  func lastMagicCode(email: String) -> String? { magicCodes.lastCode(for: Self.normalize(email)) }

  /// `POST /runtime/auth/verify_magic_code`: checks the code (each try counts against the email's
  /// hour), finds or creates the user (upgrading a guest whose token is passed, or linking it to
  /// an existing user), uses the code up and issues a new refresh token.
  func verifyMagicCode(email rawEmail: String, code rawCode: String, guestToken: String?, extraFields: JSON?) throws(ServerError) -> JSON {
    let email = Self.normalize(rawEmail)
    let code = rawCode.trimmingCharacters(in: .whitespaces)
    do {
      try magicCodes.check(code, for: email, now: clock.now)
    } catch {
      throw Self.refusal(error, email: email)
    }
    // The code is used up only by a sign-in that succeeds: one the rules refuse may try again.
    let result = try signIn(email: email, guestToken: guestToken, extraFields: extraFields)
    magicCodes.use(code, for: email)
    return result
  }

  /// The reference server's answer to a code refused.
  private static func refusal(_ refusal: MagicCodes.Refusal, email: String) -> ServerError {
    switch refusal {
    case .notFound:
      .recordNotFound("app-user-magic-code", args: [["email": .string(email)]])
    case .expired:
      ServerError(.recordExpired, message: "Record expired: app-user-magic-code", hint: ["args": [["email": .string(email)]]])
    case .rateLimited:
      ServerError(.rateLimited, message: "Too many verification codes requested for this email. Please try again later.", status: 429)
    }
  }

  /// Finds or creates the user with `email` (upgrading the guest whose token is passed, or linking
  /// it to an existing user) and issues a new refresh token.
  func signIn(email: String, guestToken: String?, extraFields: JSON?, checkingRules: Bool = true) throws(ServerError) -> JSON {
    let guestID = guestToken.flatMap { tokenOwner($0) }.flatMap { id in
      userType(id) == "guest" ? id : nil
    }
    var steps: [TxStep] = []
    let userID: String
    let created: Bool
    if let existing = findUser(email: email) {
      userID = existing
      created = false
      if let guestID, guestID != existing {
        steps.append(.addTriple(.string(guestID), .string(SystemCatalog.usersLinkedPrimaryUser), .string(existing)))
      }
    } else {
      userID = guestID ?? UUID().uuidString.lowercased()
      created = true
      steps += [
        .addTriple(.string(userID), .string(SystemCatalog.usersID), .string(userID)),
        .addTriple(.string(userID), .string(SystemCatalog.usersEmail), .string(email)),
        .addTriple(.string(userID), .string(SystemCatalog.usersType), "user"),
      ]
      steps += try extraFieldSteps(userID, extraFields)
      if checkingRules { try checkSignup(userID, ["email": .string(email), "type": "user"], extraFields) }
    }
    let token = try createUser(steps: steps, userID: userID)
    return ["user": userObject(userID, refreshToken: token) ?? .null, "created": .bool(created)]
  }

  /// `POST /runtime/auth/verify_refresh_token`.
  func verifyRefreshToken(_ token: String) throws(ServerError) -> JSON {
    guard let userID = tokenOwner(token), let user = userObject(userID, refreshToken: token.lowercased()) else {
      throw .recordNotFound("app-user", args: [["app-id": .string(appID)]])
    }
    return ["user": user]
  }

  /// `POST /runtime/signout`: forgets the refresh token.
  func signOut(_ token: String) throws(ServerError) {
    let hash = RefreshTokenHash.of(token)
    do {
      try storage.deleteRefreshToken(sha256: hash, appID: appID)
    } catch {
      throw .serverFault("The sign-out could not be saved: \(error)")
    }
    refreshTokens.remove(hash: hash)
  }

  /// The user whose refresh token this is, if any (a lookup by the token's hash).
  func tokenOwner(_ token: String) -> String? {
    refreshTokens.owner(of: token)
  }

  /// Writes `steps` (if any) and a new refresh token for `userID` in one SQLite transaction,
  /// then runs the invalidation pass; returns the token.
  func createUser(steps: [TxStep], userID: String) throws(ServerError) -> String {
    let token = UUID().uuidString.lowercased()
    let appID = self.appID
    let now = nowMillis()
    let (_, changed) = try commit(steps, systemWrite: true) { db in
      try LocalStorage.insertRefreshToken(db, sha256: RefreshTokenHash.of(token), appID: appID, userID: userID, now: now)
    }
    refreshTokens.add(token, for: userID)
    invalidate(changed: changed)
    return token
  }

  /// The app's sign-up rule (`$users.allow.create`) for a new user with these fields.
  private func checkSignup(_ userID: String, _ fields: JSONObject, _ extraFields: JSON?) throws(ServerError) {
    guard let rules else { return }
    var user: JSONObject = ["id": .string(userID)]
    user.merge(fields) { _, new in new }
    let extra = extraFields?.objectValue ?? [:]
    user.merge(extra) { _, new in new }
    if let refusal = rules.checkSignup(user, setsExtraFields: !extra.isEmpty, context: ruleContext(.user(nil), now: nowMillis())) {
      throw refusal
    }
  }

  func extraFieldSteps(_ userID: String, _ extraFields: JSON?) throws(ServerError) -> [TxStep] {
    guard let extraFields, extraFields != .null else { return [] }
    guard case let .object(fields) = extraFields else {
      throw .paramMalformed("extra-fields", input: extraFields)
    }
    var steps: [TxStep] = []
    for (label, value) in fields {
      guard !Self.systemUserFields.contains(label), let attr = store.attrs.forward("$users", label) else {
        throw .validation(
          "extra-fields", input: extraFields,
          ["\(label) is not an attribute of $users that extra-fields may set; add it to the schema first."])
      }
      steps.append(.addTriple(.string(userID), .string(attr.id), value))
    }
    return steps
  }

  /// The user with this (normalized) email: a lookup in `$users.email`'s unique index.
  func findUser(email: String) -> String? {
    store.entity(withUnique: SystemCatalog.usersEmail, value: .string(email))
  }

  func userType(_ id: String) -> String? {
    store.values(of: id, attr: SystemCatalog.usersType).first?.stringValue
  }

  /// The user object (docs/protocol.md, "The user object"): every `$users` value, plus `app_id`, `created_at`,
  /// `isGuest` and (when given) `refresh_token`.
  func userObject(_ id: String, refreshToken: String?) -> JSON? {
    guard store.hasEntity(id, etype: "$users") else { return nil }
    var o: JSONObject = ["id": .string(id)]
    var createdAt: Double?
    for t in store.triples(of: id) {
      guard let attr = store.attrs[t.attr], attr.forwardIdentity.etype == "$users", t.value != .null else { continue }
      if attr.forwardIdentity.label == "id" { createdAt = t.createdAt; continue }
      o[attr.forwardIdentity.label] = t.value
    }
    o["app_id"] = .string(appID)
    o["created_at"] = .string(Self.iso8601(createdAt ?? nowMillis()))
    o["isGuest"] = .bool(o["type"]?.stringValue == "guest")
    if let refreshToken { o["refresh_token"] = .string(refreshToken) }
    return .object(o)
  }

  static func normalize(_ email: String) -> String {
    email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  static func iso8601(_ millis: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date(timeIntervalSince1970: millis / 1000))
  }
}
