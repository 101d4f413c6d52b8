import Foundation
import InstantCore
import InstantPermissions
import Logging
import OrderedCollections

/// Auth (docs/protocol.md, "Auth over HTTP"): users are `$users` entities written with system permission; refresh
/// tokens live in SQLite next to them; magic codes are kept in memory and logged.
extension AppDatabase {
  /// `$users` labels that `extra-fields` may not set.
  static let systemUserFields: Set<String> = ["id", "email", "type", "imageURL", "linkedPrimaryUser"]

  /// `POST /runtime/auth/sign_in_guest`.
  func signInGuest(extraFields: JSON?) throws(ServerError) -> JSON {
    let userID = UUID().uuidString.lowercased()
    var steps: [JSON] = [
      ["add-triple", .string(userID), .string(SystemCatalog.usersID), .string(userID)],
      ["add-triple", .string(userID), .string(SystemCatalog.usersType), "guest"],
    ]
    steps += try extraFieldSteps(userID, extraFields)
    try checkSignup(userID, ["type": "guest"], extraFields)
    let token = try createUser(steps: steps, userID: userID)
    return ["user": userObject(userID, refreshToken: token) ?? .null]
  }

  /// `POST /runtime/auth/send_magic_code`: remembers a fresh 6-digit code for the email and
  /// logs it (nothing is emailed).
  func sendMagicCode(email: String) -> String {
    let code = String(format: "%06d", Int.random(in: 0..<1_000_000))
    magicCodes[Self.normalize(email)] = code
    logger.notice("magic code for \(Self.normalize(email)) in app \(appID): \(code)")
    return code
  }

  /// The last magic code sent to `email` and not yet used.
  func lastMagicCode(email: String) -> String? { magicCodes[Self.normalize(email)] }

  /// `POST /runtime/auth/verify_magic_code`: consumes the code; finds or creates the user
  /// (upgrading a guest whose token is passed, or linking it to an existing user); issues a new
  /// refresh token.
  func verifyMagicCode(email rawEmail: String, code: String, guestToken: String?, extraFields: JSON?) throws(ServerError) -> JSON {
    let email = Self.normalize(rawEmail)
    guard let expected = magicCodes[email], expected == code.trimmingCharacters(in: .whitespaces) else {
      throw .recordNotFound("app-user-magic-code", args: [["email": .string(email)]])
    }
    // The code is used up only by a sign-in that succeeds: one the rules refuse may try again.
    let result = try signIn(email: email, guestToken: guestToken, extraFields: extraFields)
    magicCodes.removeValue(forKey: email)
    return result
  }

  /// Finds or creates the user with `email` (upgrading the guest whose token is passed, or linking
  /// it to an existing user) and issues a new refresh token.
  func signIn(email: String, guestToken: String?, extraFields: JSON?, checkingRules: Bool = true) throws(ServerError) -> JSON {
    let guestID = guestToken.flatMap { tokenOwner($0) }.flatMap { id in
      userType(id) == "guest" ? id : nil
    }
    var steps: [JSON] = []
    let userID: String
    let created: Bool
    if let existing = findUser(email: email) {
      userID = existing
      created = false
      if let guestID, guestID != existing {
        steps.append(["add-triple", .string(guestID), .string(SystemCatalog.usersLinkedPrimaryUser), .string(existing)])
      }
    } else {
      userID = guestID ?? UUID().uuidString.lowercased()
      created = true
      steps += [
        ["add-triple", .string(userID), .string(SystemCatalog.usersID), .string(userID)],
        ["add-triple", .string(userID), .string(SystemCatalog.usersEmail), .string(email)],
        ["add-triple", .string(userID), .string(SystemCatalog.usersType), "user"],
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
    refreshTokens.removeValue(forKey: hash)
  }

  /// The user whose refresh token this is, if any (a lookup by the token's hash).
  func tokenOwner(_ token: String) -> String? {
    refreshTokens[RefreshTokenHash.of(token)]
  }

  /// Writes `steps` (if any) and a new refresh token for `userID` in one SQLite transaction,
  /// then runs the invalidation pass; returns the token.
  func createUser(steps: [JSON], userID: String) throws(ServerError) -> String {
    let token = UUID().uuidString.lowercased()
    let appID = self.appID
    let now = Self.nowMillis()
    let (_, changed) = try commit(.array(steps), systemWrite: true) { db in
      try LocalStorage.insertRefreshToken(db, sha256: RefreshTokenHash.of(token), appID: appID, userID: userID, now: now)
    }
    refreshTokens[RefreshTokenHash.of(token)] = userID
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
    if let refusal = rules.checkSignup(user, setsExtraFields: !extra.isEmpty, context: ruleContext(.user(nil), now: Self.nowMillis())) {
      throw refusal
    }
  }

  func extraFieldSteps(_ userID: String, _ extraFields: JSON?) throws(ServerError) -> [JSON] {
    guard let extraFields, extraFields != .null else { return [] }
    guard case let .object(fields) = extraFields else {
      throw .paramMalformed("extra-fields", input: extraFields)
    }
    var steps: [JSON] = []
    for (label, value) in fields {
      guard !Self.systemUserFields.contains(label), let attr = store.attrs.forward("$users", label) else {
        throw .validation(
          "extra-fields", input: extraFields,
          ["\(label) is not an attribute of $users that extra-fields may set; add it to the schema first."])
      }
      steps.append(["add-triple", .string(userID), .string(attr.id), value])
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
    o["created_at"] = .string(Self.iso8601(createdAt ?? Self.nowMillis()))
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
