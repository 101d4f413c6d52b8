import IssueReporting

/// The attribute path a key path names, as InstaQL spells it: `\Todo.done` → `done`,
/// `\Post.author?.handle` → `author.handle`.
///
/// Swift prints a stored-property key path as `\Type.a?.b`; the type and optional markers are
/// dropped. Attributes whose schema name differs from the Swift name (`created_at`) are named by
/// ``EntityIdentifiable/instantAttributeName(for:)`` or with the string forms of the modifiers.
func attributePath<Root: EntityIdentifiable>(of keyPath: PartialKeyPath<Root>) -> String {
  if let name = Root.instantAttributeName(for: keyPath) { return name }
  let text = String(describing: keyPath)
  if text.contains("<computed") {
    reportIssue(
      "\(text) names a computed property; give its attribute name with instantAttributeName(for:) or use the string form")
  }
  let components = text.split(separator: ".").dropFirst()
  return components.map { $0.replacing("?", with: "").replacing("!", with: "") }.joined(separator: ".")
}
