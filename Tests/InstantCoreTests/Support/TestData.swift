import CustomDump
import Foundation
import Testing
@testable import InstantCore

/// A small dataset written for these tests, covering what the zeneca and movies fixtures do not:
///
/// - `items`: typed attrs (`name` string, `num` number, `when` date, `flag` boolean), untyped
///   `code`/`tag`/`meta`, stored nulls and missing values, two entities (`i2`, `i3`) created at the
///   same time, a has-one self-link `parent` (reverse `children`, `on-delete: cascade`) and a has-one
///   `next` (reverse `prev`, `on-delete-reverse: cascade`), with `i6.next` pointing at itself;
/// - `owners`: a many-to-many link `items` (reverse `owners`) and a has-one `profile`;
/// - `profiles`: `p1`, plus owner `o2`'s uuid reused as a profile;
/// - `$users`: a `$`-namespace.
///
/// Entity ids are uuids chosen so that byte order differs from label order; tests name them
/// by label (`i1`…`i6`, `o1`…`o3`, `p1`, `u1`).
enum TestData {
  static let attrsJSON = #"""
  [
    {"id":"items-id","forward-identity":["f-items-id","items","id"],"value-type":"blob","cardinality":"one","unique?":true,"index?":false},
    {"id":"items-name","forward-identity":["f-items-name","items","name"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false,
      "checked-data-type":"string"},
    {"id":"items-code","forward-identity":["f-items-code","items","code"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false},
    {"id":"items-num","forward-identity":["f-items-num","items","num"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false,
      "checked-data-type":"number"},
    {"id":"items-when","forward-identity":["f-items-when","items","when"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false,
      "checked-data-type":"date"},
    {"id":"items-flag","forward-identity":["f-items-flag","items","flag"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false,
      "checked-data-type":"boolean"},
    {"id":"items-tag","forward-identity":["f-items-tag","items","tag"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false},
    {"id":"items-meta","forward-identity":["f-items-meta","items","meta"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false},
    {"id":"items-parent","forward-identity":["f-items-parent","items","parent"],"value-type":"ref","cardinality":"one","unique?":false,"index?":false,
      "reverse-identity":["r-items-parent","items","children"],"on-delete":"cascade"},
    {"id":"items-next","forward-identity":["f-items-next","items","next"],"value-type":"ref","cardinality":"one","unique?":false,"index?":false,
      "reverse-identity":["r-items-next","items","prev"],"on-delete-reverse":"cascade"},
    {"id":"owners-id","forward-identity":["f-owners-id","owners","id"],"value-type":"blob","cardinality":"one","unique?":true,"index?":false},
    {"id":"owners-handle","forward-identity":["f-owners-handle","owners","handle"],"value-type":"blob","cardinality":"one","unique?":true,
      "index?":true},
    {"id":"owners-items","forward-identity":["f-owners-items","owners","items"],"value-type":"ref","cardinality":"many","unique?":false,
      "index?":false,"reverse-identity":["r-owners-items","items","owners"]},
    {"id":"owners-profile","forward-identity":["f-owners-profile","owners","profile"],"value-type":"ref","cardinality":"one","unique?":true,
      "index?":false,"reverse-identity":["r-owners-profile","profiles","owner"]},
    {"id":"profiles-id","forward-identity":["f-profiles-id","profiles","id"],"value-type":"blob","cardinality":"one","unique?":true,"index?":false},
    {"id":"profiles-bio","forward-identity":["f-profiles-bio","profiles","bio"],"value-type":"blob","cardinality":"one","unique?":false,
      "index?":false},
    {"id":"users-id","forward-identity":["f-users-id","$users","id"],"value-type":"blob","cardinality":"one","unique?":true,"index?":false},
    {"id":"users-email","forward-identity":["f-users-email","$users","email"],"value-type":"blob","cardinality":"one","unique?":true,"index?":true}
  ]
  """#

  /// `[e, a, v, t]` rows; `t` is the server created-at.
  static let triplesJSON = #"""
  [
    ["10000000-0000-4000-8000-000000000001","items-id","10000000-0000-4000-8000-000000000001",1000],
    ["10000000-0000-4000-8000-000000000001","items-name","10",1000],
    ["10000000-0000-4000-8000-000000000001","items-code","10",1000],
    ["10000000-0000-4000-8000-000000000001","items-num",5,1000],
    ["10000000-0000-4000-8000-000000000001","items-when","2024-01-02T00:00:00.000Z",1000],
    ["10000000-0000-4000-8000-000000000001","items-flag",true,1000],
    ["10000000-0000-4000-8000-000000000001","items-tag","red",1000],
    ["20000000-0000-4000-8000-000000000002","items-id","20000000-0000-4000-8000-000000000002",2000],
    ["20000000-0000-4000-8000-000000000002","items-name","2",2000],
    ["20000000-0000-4000-8000-000000000002","items-code","2",2000],
    ["20000000-0000-4000-8000-000000000002","items-num",null,2000],
    ["20000000-0000-4000-8000-000000000002","items-when",null,2000],
    ["20000000-0000-4000-8000-000000000002","items-flag",false,2000],
    ["20000000-0000-4000-8000-000000000002","items-tag","blue",2000],
    ["0a000000-0000-4000-8000-000000000003","items-id","0a000000-0000-4000-8000-000000000003",2000],
    ["0a000000-0000-4000-8000-000000000003","items-name","a0",2000],
    ["0a000000-0000-4000-8000-000000000003","items-code","a0",2000],
    ["0a000000-0000-4000-8000-000000000003","items-num",10,2000],
    ["0a000000-0000-4000-8000-000000000003","items-tag","red",2000],
    ["0a000000-0000-4000-8000-000000000003","items-meta",{"x":1,"nested":{"y":[1,2]}},2000],
    ["40000000-0000-4000-8000-000000000004","items-id","40000000-0000-4000-8000-000000000004",3000],
    ["40000000-0000-4000-8000-000000000004","items-name","Zz",3000],
    ["40000000-0000-4000-8000-000000000004","items-code","Zz",3000],
    ["40000000-0000-4000-8000-000000000004","items-num",-3,3000],
    ["40000000-0000-4000-8000-000000000004","items-when","2023-06-01T00:00:00.000Z",3000],
    ["40000000-0000-4000-8000-000000000004","items-flag",true,3000],
    ["50000000-0000-4000-8000-000000000005","items-id","50000000-0000-4000-8000-000000000005",4000],
    ["50000000-0000-4000-8000-000000000005","items-name",null,4000],
    ["50000000-0000-4000-8000-000000000005","items-code","Bob",4000],
    ["50000000-0000-4000-8000-000000000005","items-num",5,4000],
    ["50000000-0000-4000-8000-000000000005","items-when",1700000000000,4000],
    ["50000000-0000-4000-8000-000000000005","items-tag","Red",4000],
    ["06000000-0000-4000-8000-000000000006","items-id","06000000-0000-4000-8000-000000000006",5000],
    ["06000000-0000-4000-8000-000000000006","items-name","b%_.*",5000],
    ["06000000-0000-4000-8000-000000000006","items-code","aaa",5000],
    ["06000000-0000-4000-8000-000000000006","items-tag",null,5000],
    ["20000000-0000-4000-8000-000000000002","items-parent","10000000-0000-4000-8000-000000000001",2100],
    ["0a000000-0000-4000-8000-000000000003","items-parent","10000000-0000-4000-8000-000000000001",2100],
    ["50000000-0000-4000-8000-000000000005","items-parent","40000000-0000-4000-8000-000000000004",4100],
    ["40000000-0000-4000-8000-000000000004","items-next","06000000-0000-4000-8000-000000000006",5100],
    ["06000000-0000-4000-8000-000000000006","items-next","06000000-0000-4000-8000-000000000006",5100],
    ["a1000000-0000-4000-8000-000000000001","owners-id","a1000000-0000-4000-8000-000000000001",1500],
    ["a1000000-0000-4000-8000-000000000001","owners-handle","ann",1500],
    ["a2000000-0000-4000-8000-000000000002","owners-id","a2000000-0000-4000-8000-000000000002",1400],
    ["a2000000-0000-4000-8000-000000000002","owners-handle","bob",1400],
    ["a3000000-0000-4000-8000-000000000003","owners-id","a3000000-0000-4000-8000-000000000003",1600],
    ["a3000000-0000-4000-8000-000000000003","owners-handle","cat",1600],
    ["a1000000-0000-4000-8000-000000000001","owners-items","10000000-0000-4000-8000-000000000001",1700],
    ["a1000000-0000-4000-8000-000000000001","owners-items","20000000-0000-4000-8000-000000000002",1700],
    ["a2000000-0000-4000-8000-000000000002","owners-items","20000000-0000-4000-8000-000000000002",1800],
    ["a2000000-0000-4000-8000-000000000002","owners-items","0a000000-0000-4000-8000-000000000003",1800],
    ["a1000000-0000-4000-8000-000000000001","owners-profile","b1000000-0000-4000-8000-000000000001",1900],
    ["b1000000-0000-4000-8000-000000000001","profiles-id","b1000000-0000-4000-8000-000000000001",1900],
    ["b1000000-0000-4000-8000-000000000001","profiles-bio","hi",1900],
    ["a2000000-0000-4000-8000-000000000002","profiles-id","a2000000-0000-4000-8000-000000000002",1950],
    ["a2000000-0000-4000-8000-000000000002","profiles-bio","shared id",1950],
    ["c1000000-0000-4000-8000-000000000001","users-id","c1000000-0000-4000-8000-000000000001",1000],
    ["c1000000-0000-4000-8000-000000000001","users-email","u@x.io",1000]
  ]
  """#

  /// Entity id → label.
  static let labels: [String: String] = [
    "10000000-0000-4000-8000-000000000001": "i1",
    "20000000-0000-4000-8000-000000000002": "i2",
    "0a000000-0000-4000-8000-000000000003": "i3",
    "40000000-0000-4000-8000-000000000004": "i4",
    "50000000-0000-4000-8000-000000000005": "i5",
    "06000000-0000-4000-8000-000000000006": "i6",
    "a1000000-0000-4000-8000-000000000001": "o1",
    "a2000000-0000-4000-8000-000000000002": "o2",
    "a3000000-0000-4000-8000-000000000003": "o3",
    "b1000000-0000-4000-8000-000000000001": "p1",
    "c1000000-0000-4000-8000-000000000001": "u1",
    "90000000-0000-4000-8000-000000000001": "n1",
    "08000000-0000-4000-8000-000000000002": "n2"
  ]
}
