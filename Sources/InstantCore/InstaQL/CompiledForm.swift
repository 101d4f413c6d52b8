/// A form's where clauses, compiled and planned.
struct CompiledForm {
  /// Planned for evaluation, as a chain of steps.
  var plan: DatalogStep?
  /// As written, for ``ReferenceOrderRun``.
  var written: [Clause]
  var variableCount: Int
  var entityVar: Int
  var timeVar: Int
  var parentVar: Int?
  /// Set when the form has no `where`: its answers are read straight from the indexes.
  var simple: SimpleForm?
}

/// A form without `where`: entities of the namespace, or the linked entities of a parent.
struct SimpleForm {
  var idAttr: UInt32?
  var joinAttr: UInt32?
  var joinForward: Bool
}
