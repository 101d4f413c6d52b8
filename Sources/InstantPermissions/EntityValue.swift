import CEL
import InstantCore
import OrderedCollections

/// `data`, `linkedData` and `auth` in a rule: the entity's cardinality-one attributes (a missing
/// one reads `null`), and `x.ref('link.path.attr')`, which follows links from the entity and
/// returns the list of values at the end of every path (empty when there is none).
final class EntityValue: CELObject, @unchecked Sendable {
  // Read-only after init; a rule evaluation runs on one thread. `@unchecked` because
  // `EntityReading` values (a store and its undo view) are not declared `Sendable` here.
  let id: String?
  let etype: String
  let fields: JSONObject
  let reader: any EntityReading
  /// `auth.ref` paths start with `$user.`, which names the `$users` namespace itself.
  let refPrefix: String?

  init(id: String?, etype: String, fields: JSONObject, reader: any EntityReading, refPrefix: String? = nil) {
    self.id = id
    self.etype = etype
    self.fields = fields
    self.reader = reader
    self.refPrefix = refPrefix
  }

  func member(_ name: String) throws(CELEvaluationError) -> CELValue? {
    fields[name].map(RuleValues.cel) ?? .null
  }

  func materialize() throws(CELEvaluationError) -> CELValue? { RuleValues.cel(.object(fields)) }

  func isEqual(to other: any CELObject) -> Bool {
    guard let other = other as? EntityValue else { return false }
    return other.id == id && other.etype == etype && other.fields == fields
  }

  func call(_ method: String, _ arguments: [CELValue]) throws(CELEvaluationError) -> CELValue? {
    guard method == "ref", arguments.count == 1 else { return nil }
    guard case let .string(path) = arguments[0] else {
      throw CELEvaluationError(.noSuchOverload, "ref() takes a string path, like data.ref('owner.id')")
    }
    var segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    if let refPrefix {
      guard segments.first == refPrefix, segments.count > 1 else {
        throw CELEvaluationError(.invalidArgument, "auth.ref arg must start with `\(refPrefix).`")
      }
      segments.removeFirst()
    }
    guard let id, !segments.contains(where: \.isEmpty) else {
      if segments.contains(where: \.isEmpty) { throw CELEvaluationError(.invalidArgument, "ref path '\(path)' has an empty segment") }
      return .list([])
    }
    return .list(try Self.follow(segments, from: [id], etype: etype, reader))
  }

  /// Every value at the end of `segments` from `ids`: each segment but the last is a link label
  /// (either direction); the last is an attribute, `id`, or a link label (the linked ids).
  static func follow(_ segments: [String], from ids: [String], etype start: String, _ reader: any EntityReading)
    throws(CELEvaluationError) -> [CELValue]
  {
    var ids = ids
    var etype = start
    let attrs = reader.attrs
    for (i, label) in segments.enumerated() {
      let isLast = i == segments.count - 1
      if isLast && label == "id" { return ids.map { .string($0) } }
      if let attr = attrs.forward(etype, label) {
        if attr.isRef, let reverse = attr.reverseIdentity {
          ids = unique(ids.flatMap { reader.targets(of: $0, attr: attr.id) })
          etype = reverse.etype
          if isLast { return ids.map { .string($0) } }
        } else {
          guard isLast else { throw noLink(label, etype) }
          return ids.compactMap { reader.attributes(of: $0, etype: etype)?[label] }.filter { $0 != .null }.map(RuleValues.cel)
        }
      } else if let attr = attrs.reverse(etype, label) {
        ids = unique(ids.flatMap { reader.sources(linkingTo: $0, attr: attr.id) })
        etype = attr.forwardIdentity.etype
        if isLast { return ids.map { .string($0) } }
      } else {
        // An attribute no entity has written yet reads as nothing, as a missing value does.
        if isLast { return [] }
        throw noLink(label, etype)
      }
    }
    return ids.map { .string($0) }
  }

  /// Each entity once: paths that meet again (a link cycle, two routes to one entity) would
  /// otherwise multiply at every step.
  static func unique(_ ids: [String]) -> [String] {
    var seen = Set<String>()
    return ids.filter { seen.insert($0).inserted }
  }

  static func noLink(_ label: String, _ etype: String) -> CELEvaluationError {
    CELEvaluationError(.host, "Record not found: attr (\(etype) has no link '\(label)')")
  }
}
