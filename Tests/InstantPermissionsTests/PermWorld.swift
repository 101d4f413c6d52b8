import Foundation
import InstantCore
import OrderedCollections
import InstantPermissions
import Testing

/// A small app for rule tests, evaluated by the engine (no server): a store with a schema,
/// entities named by short names, and transactions checked as instant-local checks them.
///
/// The schema is a smaller Zeneca (the reference's test fixture): `users` (a plain namespace,
/// not `$users`), `bookshelves`, `books`, `$users`, and `posts`/`comments` for links and cascades.
struct PermWorld {
  var store: TripleStore
  private var names: [String: String] = [:]
  private let attrIDs: [String: String]
  let now: Double = 1_000_000

  static let blobs: [String: [String]] = [
    "users": ["id", "handle", "email", "fullName"],
    "bookshelves": ["id", "title", "order"],
    "books": ["id", "title", "isbn", "pageCount"],
    "$users": ["id", "email", "handle", "role"],
    "posts": ["id", "title", "likes", "ownerId", "featured", "localId"],
    "comments": ["id", "body", "localId"],
    "profiles": ["id", "name"],
    "$files": ["id", "path"],
  ]
  /// (etype, label, target, reverse label, has-one, cascade from the target)
  static let links: [(String, String, String, String, Bool, Bool)] = [
    ("users", "bookshelves", "bookshelves", "users", false, false),
    ("bookshelves", "books", "books", "bookshelves", false, false),
    ("books", "creator", "$users", "books", true, false),
    ("posts", "author", "users", "posts", true, false),
    ("comments", "post", "posts", "comments", true, true),
  ]

  init() {
    var attrs: [Attr] = []
    var ids: [String: String] = [:]
    var n = 0
    func nextID() -> String {
      n += 1
      return String(format: "00000000-0000-4000-8000-%012d", n)
    }
    for (etype, labels) in Self.blobs.sorted(by: { $0.key < $1.key }) {
      for label in labels {
        let id = nextID()
        ids["\(etype).\(label)"] = id
        attrs.append(Attr(id: id, forward: Ident(id: nextID(), etype: etype, label: label), unique: label == "id" || label == "email", indexed: label == "handle"))
      }
    }
    for (etype, label, target, reverse, one, cascade) in Self.links {
      let id = nextID()
      ids["\(etype).\(label)"] = id
      attrs.append(
        Attr(
          id: id, forward: Ident(id: nextID(), etype: etype, label: label), reverse: Ident(id: nextID(), etype: target, label: reverse),
          valueType: "ref", cardinality: one ? .one : .many, onDelete: cascade ? "cascade" : nil))
    }
    attrIDs = ids
    store = TripleStore(attrs: AttrStore(attrs))
  }

  /// The id of the entity called `name` (made up on first use).
  mutating func id(_ name: String) -> String {
    if let id = names[name] { return id }
    let id = String(format: "10000000-0000-4000-8000-%012d", names.count + 1)
    names[name] = id
    return id
  }

  func attr(_ etype: String, _ label: String) -> String { attrIDs["\(etype).\(label)"]! }

  // MARK: Steps

  mutating func create(_ etype: String, _ name: String, _ values: KeyValuePairs<String, JSON> = [:]) -> [JSON] {
    let id = id(name)
    return [["add-triple", .string(id), .string(attr(etype, "id")), .string(id)]] + update(etype, name, values)
  }

  mutating func update(_ etype: String, _ name: String, _ values: KeyValuePairs<String, JSON>) -> [JSON] {
    let id = id(name)
    return values.map { ["add-triple", .string(id), .string(attr(etype, $0.key)), $0.value] }
  }

  mutating func merge(_ etype: String, _ name: String, _ label: String, _ value: JSON) -> [JSON] {
    [["deep-merge-triple", .string(id(name)), .string(attr(etype, label)), value]]
  }

  mutating func link(_ etype: String, _ name: String, _ label: String, _ target: String) -> [JSON] {
    [["add-triple", .string(id(name)), .string(attr(etype, label)), .string(id(target))]]
  }

  mutating func unlink(_ etype: String, _ name: String, _ label: String, _ target: String) -> [JSON] {
    [["retract-triple", .string(id(name)), .string(attr(etype, label)), .string(id(target))]]
  }

  mutating func delete(_ etype: String?, _ name: String) -> [JSON] {
    let parts: [JSON] = ["delete-entity", .string(id(name))] + (etype.map { [JSON.string($0)] } ?? [])
    return [.array(parts)]
  }

  mutating func ruleParams(_ etype: String, _ name: String, _ params: JSON) -> [JSON] {
    [["rule-params", .string(id(name)), .string(etype), params]]
  }

  // MARK: Running

  /// Writes as the server does (no rules).
  mutating func seed(_ steps: [JSON]) {
    _ = try! store.applyServerTransaction(.array(steps), now: now, systemWrite: true)
  }

  enum Outcome: Equatable {
    case allowed
    /// The error's type and its hint's `input`.
    case refused(ServerErrorType?, JSON)
  }

  /// Runs `steps` as `user` (a name, or nil for a guest) under `rules`; the store keeps the
  /// transaction only when the rules allow it.
  mutating func transact(_ rules: JSON, _ steps: [JSON], as user: String? = nil) -> Outcome {
    let compiled = try! PermissionRules(rules)
    let changes: ServerTransactionChanges
    do {
      changes = try store.applyServerTransaction(.array(steps), now: now)
    } catch {
      return .refused(error.serverError.type, error.serverError.hint["input"] ?? .null)
    }
    let context = self.context(user)
    // The debug routes' run, which records every check, decides as the enforcing one.
    let recorded = try? compiled.checkEach(changes, in: store, context: context)
    let recordedRefuses = recorded.map { !$0.allSatisfy(\.passed) } ?? true
    let refusal = compiled.check(changes, in: store, context: context)
    #expect(recordedRefuses == (refusal != nil), "checkEach and check disagree on \(steps)")
    if let error = refusal {
      store.revert(changes)
      return .refused(error.type, error.hint["input"] ?? error.hint["rule"] ?? .null)
    }
    return .allowed
  }

  mutating func context(_ user: String?) -> RuleContext {
    guard let user else { return RuleContext(user: nil, time: now) }
    let id = id(user)
    return RuleContext(user: (store.attributes(of: id, etype: "$users") ?? [:]).merging(["id": .string(id)]) { old, _ in old }, time: now)
  }

  /// The names of the entities of each namespace a query shows to `user` (sorted), or the
  /// error's type.
  mutating func query(_ rules: JSON, _ q: JSON, as user: String? = nil) -> Result<[String: [String]], ServerError> {
    let compiled = try! PermissionRules(rules)
    let result = try! store.serverQuery(q)
    let visible: [Triple]
    let context = context(user)
    let params = q["$$ruleParams"]?.objectValue ?? [:]
    // The debug route's run, which records every check, shows what the enforcing one shows.
    let recorded = try? compiled.visibleTriplesChecked(result.triples, in: store, context: context, ruleParams: params)
    do {
      visible = try compiled.visibleTriples(result.triples, in: store, context: context, ruleParams: params)
    } catch {
      #expect(recorded == nil, "visibleTriplesChecked showed what visibleTriples refused")
      return .failure(error)
    }
    #expect(recorded?.triples == visible, "visibleTriplesChecked and visibleTriples disagree")
    // What the client would show: evaluate the query over the visible triples.
    let client = TripleStore(attrs: store.attrs, triples: visible)
    var clientQ = q.objectValue ?? [:]
    clientQ.removeValue(forKey: "$$ruleParams")
    let answer = try! client.query(.object(clientQ))
    var out: [String: [String]] = [:]
    let byID = Dictionary(names.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
    for (namespace, rows) in answer.data.objectValue ?? [:] where namespace != "$$ruleParams" {
      out[namespace] = (rows.arrayValue ?? []).compactMap { $0["id"]?.stringValue.flatMap { byID[$0] } }.sorted()
    }
    return .success(out)
  }

  /// Which attribute labels of entity `name` a query shows.
  mutating func visibleLabels(_ rules: JSON, _ q: JSON, of name: String, as user: String? = nil) -> Set<String> {
    let compiled = try! PermissionRules(rules)
    let result = try! store.serverQuery(q)
    let visible = try! compiled.visibleTriples(result.triples, in: store, context: context(user), ruleParams: [:])
    let id = id(name)
    return Set(visible.filter { $0.entity == id }.compactMap { store.attrs[$0.attr]?.forwardIdentity.label })
  }
}
