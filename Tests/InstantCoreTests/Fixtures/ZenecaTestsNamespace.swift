/// The optimistic `tests` namespace that the reference client's tests add to zeneca.
enum ZenecaTestsNamespace {
  /// The `add-attr` steps for `tests`: `id`, `field`, `date` (dates), `num` (numbers), `string` (strings), `val` and
  /// `undefinedVal`, to open a batch with.
  static let addAttrSteps = #"""
    ["add-attr",{"id":"a7000000-0000-4000-8000-000000000001","forward-identity":["f7000000-0000-4000-8000-000000000001","tests","id"],
      "value-type":"blob","cardinality":"one","unique?":true,"index?":false}],
    ["add-attr",{"id":"a7000000-0000-4000-8000-000000000002","forward-identity":["f7000000-0000-4000-8000-000000000002","tests","field"],
      "value-type":"blob","cardinality":"one","unique?":false,"index?":false}],
    ["add-attr",{"id":"a7000000-0000-4000-8000-000000000003","forward-identity":["f7000000-0000-4000-8000-000000000003","tests","date"],
      "value-type":"blob","cardinality":"one","unique?":false,"index?":false,"checked-data-type":"date"}],
    ["add-attr",{"id":"a7000000-0000-4000-8000-000000000004","forward-identity":["f7000000-0000-4000-8000-000000000004","tests","num"],
      "value-type":"blob","cardinality":"one","unique?":false,"index?":false,"checked-data-type":"number"}],
    ["add-attr",{"id":"a7000000-0000-4000-8000-000000000005","forward-identity":["f7000000-0000-4000-8000-000000000005","tests","string"],
      "value-type":"blob","cardinality":"one","unique?":false,"index?":false,"checked-data-type":"string"}],
    ["add-attr",{"id":"a7000000-0000-4000-8000-000000000006","forward-identity":["f7000000-0000-4000-8000-000000000006","tests","val"],
      "value-type":"blob","cardinality":"one","unique?":false,"index?":false}],
    ["add-attr",{"id":"a7000000-0000-4000-8000-000000000007","forward-identity":["f7000000-0000-4000-8000-000000000007","tests","undefinedVal"],
      "value-type":"blob","cardinality":"one","unique?":false,"index?":false}]
    """#
}
