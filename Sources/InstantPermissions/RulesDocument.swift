package import InstantCore
import OrderedCollections

/// An app's permission rules as InstantDB stores them (`instant.perms.ts`'s default export), read
/// but not compiled: which rule text applies to what, in the reference server's lookup order.
///
/// A missing rule allows (as on InstantDB: `{}` allows everything). Rule values may be strings
/// of CEL or JSON booleans, which read as `"true"` and `"false"`.
package struct RulesDocument: Sendable, Equatable {
  /// The four entity actions that have rules of their own and fall back to `$default`.
  package enum Action: String, Sendable, CaseIterable, Hashable {
    case view, create, update, delete
  }

  /// Where a rule sits in the document, as the reference names it in errors (`["todos", "allow",
  /// "view"]`), and its CEL source.
  package struct Rule: Sendable, Equatable, Hashable {
    package var path: [String]
    package var source: String
    /// The namespace whose binds and `data.ref` paths the rule uses.
    package var etype: String
  }

  package let json: JSON

  package init(_ json: JSON) { self.json = json }

  /// The rule for `action` on `etype`: the namespace's own, its `$default`, the top-level
  /// `$default`'s action, the top-level `$default.$default`, then the built-in rule of a system
  /// namespace. `nil`: allowed.
  package func rule(_ etype: String, _ action: Action) -> Rule? {
    for (namespace, key) in [(etype, action.rawValue), (etype, "$default"), ("$default", action.rawValue), ("$default", "$default")] {
      if let source = Self.ruleText(json[namespace]?["allow"]?[key]) {
        return Rule(path: [namespace, "allow", key], source: source, etype: etype)
      }
    }
    return Self.systemDefault(etype, action)
  }

  /// The `link` or `unlink` rule of one side of a link: `allow.link.<label>`, then
  /// `allow.link.$default`. No other fallback applies.
  package func linkRule(_ etype: String, label: String, unlink: Bool) -> Rule? {
    let kind = unlink ? "unlink" : "link"
    for key in [label, "$default"] {
      if let source = Self.ruleText(json[etype]?["allow"]?[kind]?[key]) {
        return Rule(path: [etype, "allow", kind, key], source: source, etype: etype)
      }
    }
    return nil
  }

  /// A field's view rule (`fields.<label>`): no fallback.
  package func fieldRule(_ etype: String, label: String) -> Rule? {
    Self.ruleText(json[etype]?["fields"]?[label]).map { Rule(path: [etype, "fields", label], source: $0, etype: etype) }
  }

  /// The labels that have field rules in `etype`.
  package func fieldLabels(_ etype: String) -> [String] {
    json[etype]?["fields"]?.objectValue.map { Array($0.keys) } ?? []
  }

  /// `attrs.allow.create` (with the usual fallbacks), checked for each attribute a transaction adds.
  package var attrsCreateRule: Rule? { rule("attrs", .create) }

  /// The signup rule: only `$users.allow.create`, with no fallback.
  package var signupRule: Rule? {
    Self.ruleText(json["$users"]?["allow"]?["create"]).map { Rule(path: ["$users", "allow", "create"], source: $0, etype: "$users") }
  }

  /// The binds `etype`'s rules may use: `$default.bind` then the namespace's own (its own win on
  /// a clash). Both the list form `[name, expr, …]` and the object form `{name: expr}` are read.
  package func binds(_ etype: String) -> [(name: String, source: String)] {
    var out: [(name: String, source: String)] = []
    for namespace in etype == "$default" ? ["$default"] : ["$default", etype] {
      for (name, source) in Self.bindPairs(json[namespace]?["bind"]) {
        out.removeAll { $0.name == name }
        out.append((name, source))
      }
    }
    return out
  }

  static func bindPairs(_ bind: JSON?) -> [(String, String)] {
    switch bind {
    case let .array(items)?:
      return stride(from: 0, to: items.count - 1, by: 2).compactMap { i in
        guard let name = items[i].stringValue, let source = ruleText(items[i + 1]) else { return nil }
        return (name, source)
      }
    case let .object(o)?:
      return o.compactMap { key, value in ruleText(value).map { (key, $0) } }
    default:
      return []
    }
  }

  /// A rule's text: a string, or a boolean as `"true"`/`"false"`.
  static func ruleText(_ value: JSON?) -> String? {
    switch value {
    case let .string(s)?: return s
    case let .bool(b)?: return b ? "true" : "false"
    default: return nil
    }
  }

  /// The reference's built-in rules for system namespaces, used when the document has none.
  static func systemDefault(_ etype: String, _ action: Action) -> Rule? {
    let source: String
    switch (etype, action) {
    case ("$users", .view), ("$users", .update):
      source = "auth.id == data.id || (data.linkedPrimaryUser != null && auth.id == data.linkedPrimaryUser)"
    case ("$users", .create):
      source = "true"
    case (_, _) where etype.hasPrefix("$") && etype != "$default":
      source = "false"
    default:
      return nil
    }
    return Rule(path: [etype, "allow", action.rawValue], source: source, etype: etype)
  }
}
