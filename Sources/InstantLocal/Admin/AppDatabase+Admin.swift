import Foundation
import InstantCore
import InstantPermissions
import OrderedCollections

/// What the admin API does to an app (docs/admin.md): queries and transactions as the admin (no
/// rules) or as a user or guest (under the rules), and users, refresh tokens and magic codes.
extension AppDatabase {
  // MARK: Data

  /// `POST /admin/query`: the result as the admin SDK returns it, `{namespace: [entity, …]}` with
  /// links nested (``tree(of:_:inference:)``). The server's query finds the triples (leaving out
  /// what the rules hide from a user or guest), and the client's engine builds the tree from them,
  /// as a client would.
  func adminQuery(_ q: JSON, as asker: Asker, inference: Bool = false) throws(ServerError) -> JSON {
    try adminQuery(q, as: asker, rules: rules, recording: false, inference: inference).result
  }

  /// ``adminQuery(_:as:inference:)`` under `rules`, with every rule check it made when
  /// `recording` (`query_perms_check`).
  func adminQuery(
    _ q: JSON, as asker: Asker, rules: PermissionRules?, recording: Bool, inference: Bool = false
  ) throws(ServerError) -> (result: JSON, checks: [PermissionCheck]) {
    guard case .object = q else { throw .paramMalformed("query", input: q) }
    let (result, checks) = try visibleResult(q, for: asker, rules: rules, recording: recording)
    return (try tree(of: result, q, inference: inference), checks)
  }

  /// `POST /admin/transact`: the admin SDK's operations committed as the admin (no rules) or
  /// under the rules.
  func adminTransact(_ steps: JSON, throwOnMissingAttrs: Bool, as asker: Asker) throws(ServerError) -> Int {
    let txSteps = try adminTxSteps(steps, throwOnMissingAttrs: throwOnMissingAttrs)
    let (txID, changed) = try commit(txSteps, systemWrite: false, by: asker)
    invalidate(changed: changed)
    return txID
  }

  /// The tx-steps of the admin SDK's operations (`[action, etype, id, args, opts?]`, and
  /// `add-attr`/`delete-attr` steps), expanded by the client's InstaML, creating missing
  /// attributes unless `throwOnMissingAttrs`.
  func adminTxSteps(_ steps: JSON, throwOnMissingAttrs: Bool) throws(ServerError) -> JSON {
    guard case let .array(items) = steps else { throw .paramMalformed("steps", input: steps) }
    var attrSteps: [JSON] = []
    var ops: [InstaMLOp] = []
    var attrs = store.attrs
    for item in items {
      guard case let .array(parts) = item, let action = parts.first?.stringValue else {
        throw .validation("steps", input: item, ["Each step must be [action, namespace, id, args, opts?]."])
      }
      switch TxStep.read(item)?.op {
      case .addAttr?:
        guard parts.count == 2, let attr = try? Attr(json: parts[1]) else {
          throw .validation("steps", input: item, ["add-attr takes an attribute object."])
        }
        attrSteps.append(item)
        attrs = AttrStore(Array(attrs.attrs.values) + [attr])
      case .deleteAttr?:
        attrSteps.append(item)
      default:
        guard let op = InstaMLOp(json: item) else {
          throw .validation("steps", input: item, ["Unsupported action \(action)."])
        }
        ops.append(op)
      }
    }
    let expanded: [JSON]
    do {
      expanded = try InstaML(attrs: attrs).transform(ops)
    } catch {
      throw .validation("steps", input: steps, [error.message])
    }
    let missing = expanded.compactMap(Self.addedAttrName)
    if throwOnMissingAttrs, !missing.isEmpty {
      throw ServerError(
        .validationFailed, message: "Validation failed for steps: Attributes are missing in your schema",
        hint: [
          "data-type": "steps", "input": steps,
          "errors": [["message": "Attributes are missing in your schema", "hint": ["attributes": .array(missing.map(JSON.string))]]],
        ])
    }
    return .array(attrSteps + expanded)
  }

  /// `etype.label` of an `add-attr` step.
  private static func addedAttrName(_ step: JSON) -> String? {
    guard let step = TxStep.read(step), step.op == .addAttr,
      let ident = step.attrArgument?["forward-identity"]?.arrayValue, ident.count == 3,
      let etype = ident[1].stringValue, let label = ident[2].stringValue
    else { return nil }
    return "\(etype).\(label)"
  }

  // MARK: Users

  /// The user a refresh token belongs to.
  func user(refreshToken: String) -> String? {
    tokenOwner(refreshToken).flatMap { store.hasEntity($0, etype: "$users") ? $0 : nil }
  }

  /// Which user an admin request names: `email`, `refresh_token` or `id`, the first given (the
  /// reference's order for `GET /admin/users`).
  enum UserKey: Sendable {
    case email(String)
    case refreshToken(String)
    case id(String)
  }

  func userID(_ key: UserKey) -> String? {
    switch key {
    case let .email(email): findUser(email: Self.normalize(email))
    case let .refreshToken(token): user(refreshToken: token)
    case let .id(id): store.hasEntity(id.lowercased(), etype: "$users") ? id.lowercased() : nil
    }
  }

  /// `GET /admin/users`: `{user: … | null}`.
  func adminGetUser(_ key: UserKey) -> JSON {
    ["user": userID(key).flatMap { userObject($0, refreshToken: nil) } ?? .null]
  }

  /// `DELETE /admin/users`: deletes the user (and what cascades from it) and every refresh
  /// token of theirs; `{deleted: … | null}`.
  func adminDeleteUser(_ key: UserKey) throws(ServerError) -> JSON {
    guard let id = userID(key), let user = userObject(id, refreshToken: nil) else { return ["deleted": .null] }
    let (_, changed) = try commit(
      [TxStep.deleteEntity(.string(id), etype: "$users")], systemWrite: true,
      extra: { db in try LocalStorage.deleteRefreshTokens(db, userID: id) })
    refreshTokens.removeAll(of: id)
    invalidate(changed: changed)
    return ["deleted": user]
  }

  /// `POST /admin/refresh_tokens`: a new refresh token for the user with this email or id, made
  /// if missing (without the sign-up rule, as on the reference); `{user, created}`.
  func adminCreateToken(email: String?, id: String?, extraFields: JSON?) throws(ServerError) -> JSON {
    if let email { return try signIn(email: Self.normalize(email), guestToken: nil, extraFields: extraFields, checkingRules: false) }
    guard let id, AppRegistry.isUUID(id) else {
      throw .validation("refresh-token", input: .null, ["Please provide an `email` or `id`"])
    }
    let userID = id.lowercased()
    let created = !store.hasEntity(userID, etype: "$users")
    var steps: [TxStep] = []
    if created {
      steps.append(.addTriple(.string(userID), .string(SystemCatalog.usersID), .string(userID)))
      steps += try extraFieldSteps(userID, extraFields)
    }
    let token = try createUser(steps: steps, userID: userID)
    return ["user": userObject(userID, refreshToken: token) ?? .null, "created": .bool(created)]
  }

  /// `POST /admin/sign_out`: forgets every refresh token of the user (by `id` or `email`) or one
  /// token (`refresh_token`).
  func adminSignOut(id: String?, email: String?, refreshToken: String?) throws(ServerError) {
    let userID: String
    if let id {
      userID = id.lowercased()
    } else if let email {
      guard let found = findUser(email: Self.normalize(email)) else {
        throw .recordNotFound("app-user", args: [["email": .string(email)]])
      }
      userID = found
    } else if let refreshToken {
      return try signOut(refreshToken)
    } else {
      throw .validation("sign-out", input: .null, ["Please provide an `id`, `email`, or `refresh_token`"])
    }
    do {
      try storage.deleteRefreshTokens(userID: userID, appID: appID)
    } catch {
      throw .serverFault("The sign-out could not be saved: \(error)")
    }
    refreshTokens.removeAll(of: userID)
  }
}
