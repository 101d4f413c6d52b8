/// A form (`{$: options, label: childForm, …}`) at one place in the query, with its compiled
/// plan and its children, built on first use and reused for every parent entity.
final class FormNode {
  let etype: String
  let level: Int
  let form: JSON
  /// For a child form: the parent's etype and level, and the label that leads here.
  let parent: (etype: String, level: Int, label: String)?
  var compiled: Result<CompiledForm, QueryFailure>?
  var children: [String: ChildLink] = [:]
  /// Child labels (`Object.keys(form)` without `$`), computed once.
  lazy var labels: [String] = JSObjects.keys(form).filter { $0 != "$" }
  lazy var parsedOptions = QueryOptions(options)
  var objectAttrsCache: ObjectAttrs?
  /// The attr of `order` (when there is no start cursor) and how to sort by it.
  var orderCache: (attr: Attr?, sort: SortAttr?)?
  var singularCache: [String: Bool] = [:]

  init(etype: String, level: Int, form: JSON, parent: (etype: String, level: Int, label: String)? = nil) {
    self.etype = etype
    self.level = level
    self.form = form
    self.parent = parent
  }

  var options: JSON? { JSObjects.get(form, "$") }
  func option(_ key: String) -> JSON? { JSObjects.get(options, key) }
}

/// A child label resolved against its parent's etype.
enum ChildLink {
  case missing
  case node(FormNode)
}
