import Foundation
import InstantCore
import InstantPermissions
import OrderedCollections

/// What `$files` storage does to an app (docs/files.md): the storage permission check, the
/// `$files` rows uploads and deletes write, and the `url` every query of `$files` is given.
extension AppDatabase {
  /// The `$files` system attrs (SystemCatalog's ids, the reference's).
  enum FilesAttr {
    static let id = "96653230-13ff-ffff-2a34-81ffffffffff"
    static let path = "96653230-13ff-ffff-2a34-f04cffffffff"
    static let size = "96653230-13ff-ffff-2a35-24609fffffff"
    static let contentType = "96653230-13ff-ffff-2a34-29e5e4ffffff"
    static let contentDisposition = "96653230-13ff-ffff-2a34-21a24fffffff"
    static let locationID = LocalFiles.locationIDAttr
    static let keyVersion = "96653230-13ff-ffff-2a34-aaffffffffff"
    static let url = "96653230-13ff-ffff-2a35-48afffffffff"
  }

  // MARK: Permission

  /// Refuses a storage request the app's `$files` rules do not allow (an admin's always passes).
  /// An app without rules allows nothing: `$files` is closed until rules open it, as on InstantDB.
  func checkStorage(_ action: RulesDocument.Action, path: String, as asker: Asker) throws(ServerError) {
    guard !asker.isAdmin else { return }
    let context = ruleContext(asker, now: nowMillis())
    if let refusal = (rules ?? .none).checkStorage(action, path: path, in: store, context: context) { throw refusal }
  }

  /// ``commit(_:systemWrite:by:extra:)``'s check for an app without rules, where everything but
  /// `$files` is open: a user's or guest's transaction that touches `$files` is refused.
  func refuseFilesWithoutRules(_ changes: ServerTransactionChanges, by asker: Asker) -> ServerError? {
    guard rules == nil, !asker.isAdmin else { return nil }
    return PermissionRules.refuseFilesWithoutRules(changes.facts)
  }

  // MARK: Rows

  /// The `$files` entity at `path`, if any.
  func fileID(path: String) -> String? { store.entity(withUnique: FilesAttr.path, value: .string(path)) }

  /// The location of the blob of the file at `path`, if any.
  func fileLocation(path: String) -> String? {
    fileID(path: path).flatMap { store.attributes(of: $0, etype: "$files")?["location-id"]?.stringValue }
  }

  /// How the blob at `locationID` is served: its row's content type and disposition (the
  /// defaults when its row is gone and the blob waits for the sweep).
  func servingHeaders(locationID: String) -> (contentType: String, contentDisposition: String) {
    let row = store.entity(withUnique: FilesAttr.locationID, value: .string(locationID))
      .flatMap { store.attributes(of: $0, etype: "$files") }
    return (
      row?["content-type"]?.stringValue ?? "application/octet-stream",
      row?["content-disposition"]?.stringValue ?? "inline"
    )
  }

  /// Writes an upload's row, without rules (the caller checked `create`): the `$files` entity at
  /// `path`, made if missing and kept (with its id and links) when the path had a file, with the
  /// new blob's location, size and headers. The replaced blob is queued for the sweep.
  /// Returns `{id, location-id, size}`, the reference's answer.
  func commitUpload(
    path: String, locationID: String, size: Int, contentType: String?, contentDisposition: String?
  ) throws(ServerError) -> JSON {
    let id = fileID(path: path) ?? InstantID.make()
    let values: [(String, JSON)] = [
      (FilesAttr.id, .string(id)), (FilesAttr.path, .string(path)), (FilesAttr.size, .number(Double(size))),
      (FilesAttr.contentType, .string(contentType ?? "application/octet-stream")),
      (FilesAttr.contentDisposition, .string(contentDisposition ?? "inline")),
      (FilesAttr.locationID, .string(locationID)), (FilesAttr.keyVersion, 1),
    ]
    let steps = values.map { attr, value in TxStep.addTriple(.string(id), .string(attr), value) }
    let (_, changed) = try commit(steps, systemWrite: true)
    invalidate(changed: changed)
    return ["id": .string(id), "location-id": .string(locationID), "size": .number(Double(size))]
  }

  /// Deletes the files at `paths` (each checked against the `delete` rule first, unless the
  /// asker is an admin) in one transaction; their blobs are queued for the sweep. Returns the
  /// deleted entities' ids, `nil` for a path that had no file.
  func deleteFiles(paths: [String], as asker: Asker) throws(ServerError) -> [String?] {
    for path in paths { try checkStorage(.delete, path: path, as: asker) }
    let ids = paths.map(fileID(path:))
    let steps = Set(ids.compactMap { $0 }).sorted().map { TxStep.deleteEntity(.string($0), etype: "$files") }
    if !steps.isEmpty {
      let (_, changed) = try commit(steps, systemWrite: true)
      invalidate(changed: changed)
    }
    return ids
  }

  // MARK: Queries

  /// Gives a query's `$files` entities their `url` (a signed URL of instant-local's own, made
  /// now; never stored), when a `$files` form in the query has no `fields` or asks for `url`,
  /// as the reference's `transform-$files-result`. In an app without rules, a user's or guest's
  /// result loses its `$files` entities (and the links to them) instead: `$files` is closed.
  ///
  /// Queries without a `$files` form (at any depth) cost a walk of the query's forms.
  func presentFiles(_ result: inout ServerQueryResult, q: JSON, asker: Asker) {
    guard let wantsURL = filesForms(q) else { return }
    if rules == nil, !asker.isAdmin {
      result.triples.removeAll { triple in
        guard let attr = store.attrs[triple.attr] else { return false }
        return attr.forwardIdentity.etype == "$files" || (attr.isRef && attr.reverseIdentity?.etype == "$files")
      }
      return
    }
    guard wantsURL, let files else { return }
    var seen: Set<String> = []
    var urls: [Triple] = []
    for triple in result.triples where triple.attr == FilesAttr.id && seen.insert(triple.entity).inserted {
      guard let location = store.attributes(of: triple.entity, etype: "$files")?["location-id"]?.stringValue,
        LocalFiles.isLocationID(location), let url = files.url(appID: appID, locationID: location)
      else { continue }
      urls.append(Triple(triple.entity, FilesAttr.url, .string(url), triple.createdAt))
    }
    result.triples += urls
  }

  /// Whether the query has a `$files` form (top-level or reached through a link): `nil` when it
  /// has none, else whether one of them wants `url` (no `fields`, or `fields` naming it).
  private func filesForms(_ q: JSON) -> Bool? {
    var found = false
    var wantsURL = false
    func visit(_ etype: String, _ form: JSON) {
      if etype == "$files" {
        found = true
        let fields = form["$"]?["fields"]?.arrayValue
        if fields.map({ $0.contains("url") }) ?? true { wantsURL = true }
      }
      guard case let .object(children) = form else { return }
      for (label, child) in children where label != "$" {
        let forward = store.attrs.forward(etype, label).flatMap { $0.isRef ? $0.reverseIdentity?.etype : nil }
        if let target = forward ?? store.attrs.reverse(etype, label)?.forwardIdentity.etype { visit(target, child) }
      }
    }
    guard case let .object(namespaces) = q else { return nil }
    for (namespace, form) in namespaces where namespace != "$$ruleParams" { visit(namespace, form) }
    return found ? wantsURL : nil
  }
}
