import InstantCore
import OrderedCollections
import Testing

@testable import InstantPermissions

/// Writes under rules, case by case from the reference server's tests (`transaction_test.clj`,
/// named "TT" with the test's name) and its permissions docs.
@Suite("Rules on transactions")
struct TransactionRuleTests {
  /// Zeneca's people and shelves: stopa and alex in `users`, alex's shelf, a 2022 shelf.
  static func zeneca() -> PermWorld {
    var w = PermWorld()
    w.seed(w.create("users", "stopa", ["handle": "stopa", "email": "stopa@instantdb.com"]))
    w.seed(w.create("users", "alex", ["handle": "alex", "email": "alex@instantdb.com"]))
    w.seed(w.create("bookshelves", "alexShelf", ["title": "Alex's shelf"]) + w.link("users", "alex", "bookshelves", "alexShelf"))
    w.seed(w.create("bookshelves", "shelf2022", ["title": "2022"]) + w.link("users", "stopa", "bookshelves", "shelf2022"))
    w.seed(w.create("$users", "alexUser", ["email": "alex@instantdb.com", "handle": "alex"]))
    w.seed(w.create("$users", "joeUser", ["email": "joe@instantdb.com", "handle": "joe"]))
    return w
  }

  static let denied = PermWorld.Outcome.refused(.permissionDenied, ["users", "object"])

  @Test("no rules allow every write (TT write-perms: no perms accepts)")
  func noRules() {
    var w = Self.zeneca()
    #expect(w.transact([:], w.update("users", "stopa", ["handle": "stopado"])) == .allowed)
  }

  @Test("update false blocks an update, and the store keeps the old value (TT write-perms)")
  func updateFalse() {
    var w = Self.zeneca()
    let outcome = w.transact(["users": ["allow": ["update": "false"]]], w.update("users", "stopa", ["handle": "x"]))
    #expect(outcome == Self.denied)
    #expect(w.store.attributes(of: w.id("stopa"), etype: "users")?["handle"] == "stopa")
  }

  @Test("newData is the entity after the write (TT write-perms: right and wrong value)")
  func newData() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["update": "newData.handle == 'stopado'"]]]
    #expect(w.transact(rules, w.update("users", "stopa", ["handle": "stopa2"])) == Self.denied)
    #expect(w.transact(rules, w.update("users", "stopa", ["handle": "stopado"])) == .allowed)
  }

  @Test("binds (TT write-perms: bind works; docs: isOwner && isStillOwner)")
  func binds() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["update": "newData.handle == handle"], "bind": ["handle", "'strooper'"]]]
    #expect(w.transact(rules, w.update("users", "stopa", ["handle": "strooper"])) == .allowed)
    #expect(w.transact(rules, w.update("users", "stopa", ["handle": "other"])) == Self.denied)
    // Object form, and binds using binds.
    let objectForm: JSON = [
      "users": ["allow": ["update": "ok"], "bind": ["ok": "isStopa && true", "isStopa": "data.handle == 'strooper'"]]
    ]
    #expect(w.transact(objectForm, w.update("users", "stopa", ["email": "s@x"])) == .allowed)
    #expect(w.transact(objectForm, w.update("users", "alex", ["email": "a@x"])) == Self.denied)
  }

  @Test("data.ref follows links (TT write-perms: ref allows / invalid ref blocks)")
  func dataRef() {
    var w = Self.zeneca()
    let rules: JSON = ["bookshelves": ["allow": ["update": "handle in data.ref('users.handle')"], "bind": ["handle", "'alex'"]]]
    #expect(w.transact(rules, w.update("bookshelves", "alexShelf", ["title": "new"])) == .allowed)
    #expect(w.transact(rules, w.update("bookshelves", "shelf2022", ["title": "new"])) == .refused(.permissionDenied, ["bookshelves", "object"]))
  }

  @Test("auth is the signed-in $users entity; a guest's is empty (TT write-perms: correct/incorrect auth)")
  func auth() {
    var w = Self.zeneca()
    let rules: JSON = ["bookshelves": ["allow": ["update": "handle in data.ref('users.handle')"], "bind": ["handle", "auth.handle"]]]
    let steps = w.update("bookshelves", "alexShelf", ["title": "x"])
    #expect(w.transact(rules, steps, as: "alexUser") == .allowed)
    #expect(w.transact(rules, steps, as: "joeUser") == .refused(.permissionDenied, ["bookshelves", "object"]))
    #expect(w.transact(rules, steps) == .refused(.permissionDenied, ["bookshelves", "object"]))
  }

  @Test("create false blocks a new entity; a missing rule allows (TT write-perms: create can block)")
  func createFalse() {
    var w = Self.zeneca()
    #expect(w.transact(["users": ["allow": ["create": "false"]]], w.create("users", "new", ["handle": "n"])) == Self.denied)
    #expect(w.store.attributes(of: w.id("new"), etype: "users") == nil)
    #expect(w.transact(["users": ["allow": ["update": "false"]]], w.create("users", "new", ["handle": "n"])) == .allowed)
  }

  @Test("create rules run after the write: data.ref sees a link made in the same transaction (TT ref in create)")
  func createSeesNewLinks() {
    var w = Self.zeneca()
    let rules: JSON = ["bookshelves": ["allow": ["create": "handle in data.ref('users.handle')"], "bind": ["handle", "auth.handle"]]]
    let mine = w.create("bookshelves", "newShelf", ["title": "mine"]) + w.link("users", "alex", "bookshelves", "newShelf")
    #expect(w.transact(rules, mine, as: "alexUser") == .allowed)
    let theirs = w.create("bookshelves", "joesShelf", ["title": "not mine"]) + w.link("users", "stopa", "bookshelves", "joesShelf")
    #expect(w.transact(rules, theirs, as: "alexUser") == .refused(.permissionDenied, ["bookshelves", "object"]))
  }

  @Test("update rules read the data before the write: data.ref does not see a link this write adds (TT: update runs before)")
  func updateSeesOldLinks() {
    var w = Self.zeneca()
    let rules: JSON = ["bookshelves": ["allow": ["update": "'alex' in data.ref('users.handle')"]]]
    // Linking alex to the 2022 shelf and renaming it in one transaction: the shelf was not alex's before.
    let steps = w.update("bookshelves", "shelf2022", ["title": "taken"]) + w.link("users", "alex", "bookshelves", "shelf2022")
    #expect(w.transact(rules, steps) == .refused(.permissionDenied, ["bookshelves", "object"]))
  }

  @Test("delete false blocks deletes, even of an entity that does not exist (TT delete can block, delete non-existent-entity)")
  func deleteFalse() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["delete": "false"]]]
    #expect(w.transact(rules, w.delete("users", "stopa")) == Self.denied)
    #expect(w.store.attributes(of: w.id("stopa"), etype: "users") != nil)
    #expect(w.transact(rules, w.delete("users", "nobody")) == Self.denied)
    #expect(w.transact(["users": ["allow": ["delete": "data.handle == 'stopa'"]]], w.delete("users", "stopa")) == .allowed)
    #expect(w.store.attributes(of: w.id("stopa"), etype: "users") == nil)
  }

  @Test("attrs.create false blocks new attributes; update-attr and delete-attr are refused under any rules (TT attr can block)")
  func attrs() {
    var w = Self.zeneca()
    let addAttr: JSON = [
      "add-attr",
      ["id": "20000000-0000-4000-8000-000000000001", "forward-identity": ["20000000-0000-4000-8000-000000000002", "users", "favoriteColor"], "value-type": "blob", "cardinality": "one", "unique?": false, "index?": false],
    ]
    #expect(w.transact(["attrs": ["allow": ["create": "false"]]], [addAttr]) == .refused(.permissionDenied, ["attrs", "attr"]))
    #expect(w.store.attrs["20000000-0000-4000-8000-000000000001"] == nil)
    #expect(w.transact(["attrs": ["allow": ["create": "false"]]], w.update("users", "stopa", ["handle": "ok"])) == .allowed)
    #expect(w.transact(["attrs": ["allow": ["$default": "false"]]], [addAttr]) == .refused(.permissionDenied, ["attrs", "attr"]))
    let deleteAttr: JSON = ["delete-attr", .string(w.attr("users", "fullName"))]
    #expect(w.transact([:], [deleteAttr]) == .refused(.permissionDenied, ["attrs", "attr"]))
    #expect(w.store.attrs[w.attr("users", "fullName")] != nil)
  }

  @Test("one entity id in two namespaces gets both namespaces' create rules (TT you can't smuggle in transactions)")
  func smuggling() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["view": "false", "create": "false", "update": "false", "delete": "false"]]]
    let id = w.id("smuggled")
    let steps: [JSON] = [
      ["add-triple", .string(id), .string(w.attr("books", "id")), .string(id)],
      ["add-triple", .string(id), .string(w.attr("users", "id")), .string(id)],
      ["add-triple", .string(id), .string(w.attr("users", "handle")), "smuggled"],
    ]
    #expect(w.transact(rules, steps) == Self.denied)
  }

  @Test("deep merges: newData holds every merge of the transaction (TT write-perms-merged)")
  func merges() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["update": "newData.fullName.foo == '1' && newData.fullName.bar == '2' && newData.fullName.baz == '3'"]]]
    w.seed(w.update("users", "stopa", ["fullName": ["foo": "0", "baz": "3"]]))
    let steps = w.merge("users", "stopa", "fullName", ["foo": "1"]) + w.merge("users", "stopa", "fullName", ["bar": "2"])
    #expect(w.transact(rules, steps) == .allowed)
  }

  @Test("ruleParams on create, update and delete (TT create-perms-rule-params, update-perms-rule-params)")
  func ruleParams() {
    var w = Self.zeneca()
    let create: JSON = ["users": ["allow": ["create": "newData.handle == ruleParams.handle"]]]
    #expect(w.transact(create, w.create("users", "alyssa", ["handle": "alyssa"])) == Self.denied)
    #expect(w.transact(create, w.ruleParams("users", "alyssa", ["handle": "not alyssa"]) + w.create("users", "alyssa", ["handle": "alyssa"])) == Self.denied)
    #expect(w.transact(create, w.ruleParams("users", "alyssa", ["handle": "alyssa"]) + w.create("users", "alyssa", ["handle": "alyssa"])) == .allowed)
    let update: JSON = ["users": ["allow": ["update": "data.handle == ruleParams.handle"]]]
    #expect(w.transact(update, w.update("users", "stopa", ["email": "x"])) == Self.denied)
    #expect(w.transact(update, w.ruleParams("users", "stopa", ["handle": "stopa"]) + w.update("users", "stopa", ["email": "x"])) == .allowed)
    // Params name an entity and a namespace: alex's params do not reach stopa.
    #expect(w.transact(update, w.ruleParams("users", "alex", ["handle": "stopa"]) + w.update("users", "stopa", ["email": "y"])) == Self.denied)
  }

  @Test("cascaded deletes are checked with the params of the entity whose delete caused them (TT cascade-delete-with-rule-params)")
  func cascade() {
    var w = Self.zeneca()
    w.seed(w.create("posts", "post", ["title": "p", "localId": "p1"]))
    w.seed(w.create("comments", "comment", ["body": "c", "localId": "p1"]) + w.link("comments", "comment", "post", "post"))
    let rules: JSON = [
      "posts": ["allow": ["delete": "isCreator"], "bind": ["isCreator", "data.localId == ruleParams.localId"]],
      "comments": ["allow": ["delete": "isCreator"], "bind": ["isCreator", "data.localId == ruleParams.localId"]],
    ]
    #expect(w.transact(rules, w.ruleParams("posts", "post", ["localId": "wrong"]) + w.delete("posts", "post")) == .refused(.permissionDenied, ["posts", "object"]))
    #expect(w.store.attributes(of: w.id("comment"), etype: "comments") != nil)
    #expect(w.transact(rules, w.ruleParams("posts", "post", ["localId": "p1"]) + w.delete("posts", "post")) == .allowed)
    #expect(w.store.attributes(of: w.id("comment"), etype: "comments") == nil)
  }

  @Test("a comment's own delete rule decides for a cascade (TT cascade: the comment's check)")
  func cascadeChecksChildren() {
    var w = Self.zeneca()
    w.seed(w.create("posts", "post", ["title": "p"]))
    w.seed(w.create("comments", "comment", ["body": "c"]) + w.link("comments", "comment", "post", "post"))
    let rules: JSON = ["comments": ["allow": ["delete": "false"]]]
    #expect(w.transact(rules, w.delete("posts", "post")) == .refused(.permissionDenied, ["comments", "object"]))
    #expect(w.store.attributes(of: w.id("post"), etype: "posts") != nil)
  }

  @Test("request.modifiedFields: an update that only touches likes (TT modified-fields-update-permissions)")
  func modifiedFields() {
    var w = Self.zeneca()
    w.seed(w.create("posts", "post", ["title": "t", "likes": 0, "ownerId": .string(w.id("alexUser"))]))
    let rules: JSON = ["posts": ["allow": ["update": "auth.id == data.ownerId || request.modifiedFields.all(field, field in ['likes'])"]]]
    #expect(w.transact(rules, w.update("posts", "post", ["likes": 1]), as: "joeUser") == .allowed)
    #expect(w.transact(rules, w.update("posts", "post", ["title": "mine"]), as: "joeUser") == .refused(.permissionDenied, ["posts", "object"]))
    #expect(w.transact(rules, w.update("posts", "post", ["likes": 2, "title": "mine"]), as: "joeUser") == .refused(.permissionDenied, ["posts", "object"]))
    #expect(w.transact(rules, w.update("posts", "post", ["title": "mine"]), as: "alexUser") == .allowed)
    let create: JSON = ["posts": ["allow": ["create": "!('featured' in request.modifiedFields)"]]]
    #expect(w.transact(create, w.create("posts", "plain", ["title": "a"])) == .allowed)
    #expect(w.transact(create, w.create("posts", "featured", ["title": "a", "featured": true])) == .refused(.permissionDenied, ["posts", "object"]))
  }

  @Test("$default: a namespace's, then the top level's, in the reference's order (TT refs-in-default-perms, bind-in-default-perms)")
  func defaults() {
    var w = Self.zeneca()
    let steps = w.update("users", "stopa", ["email": "e"])
    for rules: JSON in [
      ["$default": ["allow": ["update": "false"]]], ["$default": ["allow": ["$default": "false"]]],
      ["users": ["allow": ["$default": "false"]]], ["users": ["allow": ["update": "false"]]],
      ["$default": ["bind": ["no", "false"], "allow": ["$default": "no"]]], ["$default": ["bind": ["no", "false"]], "users": ["allow": ["update": "no"]]],
    ] {
      #expect(w.transact(rules, steps) == Self.denied, "\(rules)")
    }
    #expect(w.transact(["$default": ["allow": ["$default": "false"]], "users": ["allow": ["update": "true"]]], steps) == .allowed)
    #expect(w.transact(["users": ["allow": ["$default": "false", "update": "true"]]], steps) == .allowed)
  }

  @Test("links without link rules: update (or create) on the entity holding the link, view on the other (TT link-perms fallback)")
  func linkFallback() {
    var w = Self.zeneca()
    let steps = w.link("users", "stopa", "bookshelves", "alexShelf")
    #expect(w.transact(["bookshelves": ["allow": ["view": "false"]]], steps) == .refused(.permissionDenied, ["bookshelves", "object"]))
    #expect(w.transact(["users": ["allow": ["update": "false"]]], steps) == Self.denied)
    #expect(w.transact(["bookshelves": ["allow": ["update": "false"]]], steps) == .allowed)
    let unlink = w.unlink("users", "stopa", "bookshelves", "shelf2022")
    #expect(w.transact(["bookshelves": ["allow": ["view": "false"]]], unlink) == .refused(.permissionDenied, ["bookshelves", "object"]))
  }

  @Test("link rules: only the sides that have one are checked, and both must pass (TT link-perms, default-link-unlink-perms)")
  func linkRules() {
    var w = Self.zeneca()
    let steps = w.link("users", "stopa", "bookshelves", "alexShelf")
    // A forward rule alone: the shelf's view rule is not consulted.
    let forwardOnly: JSON = ["users": ["allow": ["link": ["bookshelves": "true"]]], "bookshelves": ["allow": ["view": "false"]]]
    #expect(w.transact(forwardOnly, steps) == .allowed)
    let reverseDenies: JSON = ["users": ["allow": ["link": ["bookshelves": "true"]]], "bookshelves": ["allow": ["link": ["users": "false"]]]]
    #expect(w.transact(reverseDenies, steps) == .refused(.permissionDenied, ["bookshelves", "object"]))
    let viaDefault: JSON = ["users": ["allow": ["link": ["$default": "linkedData.title == 'Alex\\'s shelf'"]]]]
    #expect(w.transact(viaDefault, steps) == .allowed)
    #expect(w.transact(viaDefault, w.link("users", "alex", "bookshelves", "shelf2022")) == Self.denied)
    let unlinkRule: JSON = ["users": ["allow": ["unlink": ["bookshelves": "false"]]]]
    #expect(w.transact(unlinkRule, w.unlink("users", "stopa", "bookshelves", "shelf2022")) == Self.denied)
    #expect(w.transact(unlinkRule, steps) == .allowed)
  }

  @Test("link rules see actions: whether each side is new (TT link-actions-perm)")
  func linkActions() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["link": ["bookshelves": "actions.data == 'create' && actions.linkedData == 'update'"]]]]
    #expect(w.transact(rules, w.create("users", "newUser", ["handle": "n"]) + w.link("users", "newUser", "bookshelves", "alexShelf")) == .allowed)
    #expect(w.transact(rules, w.link("users", "stopa", "bookshelves", "alexShelf")) == Self.denied)
  }

  @Test("deleting never checks unlink rules (TT unlink-perms-during-delete)")
  func deleteIgnoresUnlink() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["unlink": ["$default": "false"]]], "bookshelves": ["allow": ["unlink": ["$default": "false"]]]]
    #expect(w.transact(rules, w.delete("users", "stopa")) == .allowed)
  }

  @Test("$users: a user may write their own custom fields, a guest may not (TT perms-accepts-writes-to-custom-user-columns)")
  func usersDefaults() {
    var w = Self.zeneca()
    let steps = w.update("$users", "alexUser", ["role": "editor"])
    #expect(w.transact([:], steps) == .refused(.permissionDenied, ["$users", "object"]))
    #expect(w.transact([:], steps, as: "joeUser") == .refused(.permissionDenied, ["$users", "object"]))
    #expect(w.transact([:], steps, as: "alexUser") == .allowed)
    #expect(w.transact([:], w.delete("$users", "alexUser"), as: "alexUser") == .refused(.permissionDenied, ["$users", "object"]))
  }

  @Test("linking to a $users row needs view on it: only the user may (TT perms-accepts-writes-to-reverse-links-to-users-table)")
  func linkToUsers() {
    var w = Self.zeneca()
    let steps = w.create("books", "book", ["title": "b"]) + w.link("books", "book", "creator", "alexUser")
    #expect(w.transact([:], steps) == .refused(.permissionDenied, ["$users", "object"]))
    #expect(w.transact([:], steps, as: "alexUser") == .allowed)
  }

  @Test("auth.ref walks from the signed-in user (TT users-write-perms)")
  func authRef() {
    var w = Self.zeneca()
    w.seed(w.create("books", "book", ["title": "b", "isbn": "1234"]) + w.link("books", "book", "creator", "alexUser"))
    let rules: JSON = ["books": ["allow": ["update": "'1234' in auth.ref('$user.books.isbn')"]]]
    let steps = w.update("books", "book", ["title": "c"])
    #expect(w.transact(rules, steps) == .refused(.permissionDenied, ["books", "object"]))
    #expect(w.transact(rules, steps, as: "joeUser") == .refused(.permissionDenied, ["books", "object"]))
    #expect(w.transact(rules, steps, as: "alexUser") == .allowed)
  }

  @Test("a rule that fails to evaluate refuses with permission-evaluation-failed, never allows")
  func evaluationFailure() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["update": "data.handle.size() > 1 || 1 / 0 == 1"]]]
    #expect(w.transact(rules, w.update("users", "stopa", ["email": "x"])) == .allowed)
    let failing: JSON = ["users": ["allow": ["update": "1 / 0 == 1"]]]
    #expect(w.transact(failing, w.update("users", "stopa", ["email": "x"])) == .refused(.permissionEvaluationFailed, ["users", "update"]))
    // linkedData is unbound when the other side does not exist: an evaluation failure.
    let link: JSON = ["users": ["allow": ["link": ["bookshelves": "linkedData.title == 'x'"]]]]
    let nowhere = w.id("missing")
    let steps: [JSON] = [["add-triple", .string(w.id("stopa")), .string(w.attr("users", "bookshelves")), .string(nowhere)]]
    #expect(w.transact(link, steps) == .refused(.permissionEvaluationFailed, ["users", "link"]))
  }

  @Test("request.time and timestamps in milliseconds (CT request.time)")
  func requestTime() {
    var w = Self.zeneca()
    w.seed(w.update("users", "stopa", ["fullName": 0]))
    // The world's clock is 1,000,000 ms after the epoch.
    let rules: JSON = ["users": ["allow": ["update": "request.time > timestamp(data.fullName) && request.time.getTime() == 1000000 && request.time < timestamp('1970-01-01T00:16:41Z')"]]]
    #expect(w.transact(rules, w.update("users", "stopa", ["email": "x"])) == .allowed)
    // Milliseconds before the epoch round down to the earlier second, and back.
    let negative: JSON = ["users": ["allow": ["update": "timestamp(-1).getTime() == -1 && timestamp(-1001).getTime() == -1001 && timestamp(-1) < timestamp(0)"]]]
    #expect(w.transact(negative, w.update("users", "stopa", ["email": "y"])) == .allowed)
  }
}
