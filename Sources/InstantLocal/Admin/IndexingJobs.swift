import InstantCore
import OrderedCollections

/// A schema push's indexing jobs, by id, in the reference's client format. instant-local runs a
/// job at once, in the push; they are kept so the CLI can read them back
/// (`GET /dash/apps/{id}/indexing-jobs/…`), for as long as the server runs.
struct IndexingJobs {
  private var jobs: OrderedDictionary<String, JSON> = [:]

  /// Keeps `job` under its `id`, and returns it.
  mutating func record(_ job: JSONObject) -> JSON {
    if let id = job["id"]?.stringValue { jobs[id] = .object(job) }
    return .object(job)
  }

  /// `GET /dash/apps/{id}/indexing-jobs/group/{group}`.
  func group(_ group: String) -> JSON {
    ["jobs": .array(jobs.values.filter { $0["group_id"]?.stringValue == group })]
  }

  /// `GET /dash/apps/{id}/indexing-jobs/{job}`.
  func job(_ id: String) throws(ServerError) -> JSON {
    guard let job = jobs[id] else { throw .recordNotFound("indexing-job", args: ["id": .string(id)]) }
    return ["job": job]
  }
}
