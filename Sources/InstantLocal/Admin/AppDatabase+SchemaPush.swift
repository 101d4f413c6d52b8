import Foundation
import InstantCore
import OrderedCollections

/// `instant-cli push schema` (docs/admin.md, "Schema push"): the plan's steps, as the reference's
/// `schema/steps/apply` takes them. `add-attr`, `update-attr` and `delete-attr` run as one admin
/// transaction; every other step is an indexing job (`index`, `unique`, `required`,
/// `check-data-type` and their removals), which the reference runs in the background and
/// instant-local runs at once, checking the app's data first: a job whose data does not fit
/// (a value twice for `unique`, an entity without the attribute for `required`, a value of another
/// type for `check-data-type`) ends `errored` and changes nothing.
extension AppDatabase {
  static let jobTypes: Set<String> = [
    "index", "remove-index", "unique", "remove-unique", "required", "remove-required", "check-data-type",
    "remove-data-type",
  ]

  /// `POST /dash/apps/{id}/schema/steps/apply`.
  func applySchemaSteps(_ steps: JSON) throws(ServerError) -> JSON {
    guard case let .array(items) = steps else { throw .paramMalformed("steps", input: steps) }
    var txSteps: [JSON] = []
    var jobSteps: [(index: Int, type: String, params: JSONObject)] = []
    for (index, item) in items.enumerated() {
      guard case let .array(parts) = item, parts.count == 2, let action = parts[0].stringValue else {
        throw .validation("steps", input: item, ["Each step must be [action, params]."])
      }
      switch TxStep.read(item)?.op {
      case .addAttr?, .updateAttr?, .deleteAttr?:
        txSteps.append(item)
      case _ where Self.jobTypes.contains(action):
        guard let params = parts[1].objectValue, params["attr-id"]?.stringValue != nil else {
          throw .validation("steps", input: item, ["\(action) needs {\"attr-id\": …}."])
        }
        jobSteps.append((index, action, params))
      default:
        throw .validation("steps", input: item, ["Unsupported action \(action)."])
      }
    }
    var transaction: JSON = [:]
    if !txSteps.isEmpty {
      let (txID, changed) = try commit(.array(txSteps), systemWrite: false, by: .admin)
      invalidate(changed: changed)
      transaction = [
        "id": .number(Double(txID)), "app_id": .string(appID), "created_at": .string(Self.iso8601(nowMillis())),
      ]
    }
    var answered = items
    var jobs: [JSON] = []
    let groupID = UUID().uuidString.lowercased()
    for (index, type, params) in jobSteps {
      let job = runJob(type, params, groupID: groupID)
      jobs.append(job)
      var withID = params
      withID["job-id"] = job["id"] ?? .null
      answered[index] = [.string(type), .object(withID)]
    }
    return [
      "transaction": transaction, "steps": .array(answered),
      "indexing-jobs": jobs.isEmpty ? .null : ["group-id": .string(groupID), "jobs": .array(jobs)],
    ]
  }

  /// `GET /dash/apps/{id}/indexing-jobs/group/{group}`.
  func indexingJobs(group: String) -> JSON { schemaJobs.group(group) }

  /// `GET /dash/apps/{id}/indexing-jobs/{job}`.
  func indexingJob(_ id: String) throws(ServerError) -> JSON { try schemaJobs.job(id) }

  /// Runs one job: checks the data, then changes the attr in an admin transaction; the job in
  /// the reference's client format.
  private func runJob(_ type: String, _ params: JSONObject, groupID: String) -> JSON {
    let attrID = params["attr-id"]?.stringValue ?? ""
    let now = JSON.string(Self.iso8601(nowMillis()))
    var job: JSONObject = [
      "id": .string(UUID().uuidString.lowercased()), "app_id": .string(appID), "group_id": .string(groupID),
      "attr_id": .string(attrID), "attr_name": .null, "job_type": .string(type), "job_status": "completed",
      "job_stage": "done", "work_estimate": 0, "work_completed": 0, "error": .null,
      "checked_data_type": params["checked-data-type"] ?? .null, "created_at": now, "updated_at": now, "done_at": now,
      "invalid_unique_value": .null, "invalid_triples_sample": .null, "error_data": .null,
    ]
    func fail(_ error: String, _ extra: JSONObject = [:]) -> JSON {
      job["job_status"] = "errored"
      job["job_stage"] = "errored"
      job["error"] = .string(error)
      job.merge(extra) { _, new in new }
      return schemaJobs.record(job)
    }
    guard let attr = store.attrs[attrID] else { return fail("attr-not-found") }
    job["attr_name"] = .string(attr.qualifiedName)
    let values = store.triples(withAttr: attrID)
    job["work_estimate"] = .number(Double(values.count))
    var change: JSONObject = ["id": .string(attrID)]
    switch type {
    case "index", "remove-index": change["index?"] = .bool(type == "index")
    case "unique":
      var seen: [JSON: String] = [:]
      for triple in values where triple.value != .null {
        if let other = seen[triple.value], other != triple.entity {
          return fail("triple-not-unique", ["invalid_unique_value": triple.value])
        }
        seen[triple.value] = triple.entity
      }
      change["unique?"] = true
    case "remove-unique": change["unique?"] = false
    case "required":
      let etype = attr.forwardIdentity.etype
      let having = Set(values.filter { $0.value != .null }.map(\.entity))
      let entities = store.attrs.primaryKey(etype).map { key in store.triples(withAttr: key.id).map(\.entity) } ?? []
      let missing = entities.filter { !having.contains($0) }
      if !missing.isEmpty {
        return fail(
          "missing-required", ["invalid_triples_sample": .array(missing.prefix(10).map { ["entity_id": .string($0)] })])
      }
      change["required?"] = true
    case "remove-required": change["required?"] = false
    case "check-data-type":
      guard let wanted = params["checked-data-type"]?.stringValue, ["string", "number", "boolean", "date"].contains(wanted)
      else { return fail("invalid-data-type") }
      let probe = (try? attr.merging(["checked-data-type": .string(wanted)])) ?? attr
      let wrong = values.filter { !probe.accepts($0.value) }
      if !wrong.isEmpty {
        return fail(
          "invalid-triple-error",
          ["invalid_triples_sample": .array(wrong.prefix(10).map { ["entity_id": .string($0.entity), "value": $0.value] })])
      }
      change["checked-data-type"] = .string(wanted)
    default: change["checked-data-type"] = .null  // remove-data-type
    }
    do {
      let (_, changed) = try commit([TxStep.updateAttr(change)], systemWrite: false, by: .admin)
      invalidate(changed: changed)
    } catch {
      return fail(error.message)
    }
    job["work_completed"] = job["work_estimate"]
    return schemaJobs.record(job)
  }
}
