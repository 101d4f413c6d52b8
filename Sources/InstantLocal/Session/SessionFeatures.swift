import InstantCore

/// What a session negotiated through `versions["@instantdb/core"]` (docs/protocol.md, "Feature negotiation").
///
/// A version that does not parse as `v?MAJOR.MINOR.PATCH(-dev)?` gives no features ("legacy").
struct SessionFeatures: Sendable, Equatable {
  /// `patch-presence` diffs instead of full snapshots (core > 0.17.5).
  var patchPresence = false
  /// `refresh-ok` omits unchanged attrs and is skipped when nothing changed (core > 0.20.4).
  var skipAttrs = false
  /// JSON-array frames allowed (core > 0.22.75); never used by this server, as by the reference.
  var batchMessages = false
  /// `refresh-ok` carries what changed in a result (`instaql-result-changes`) instead of the whole
  /// of it: this library's client, `versions["sharing-instant"]` 0.2.0 or later. InstantDB's
  /// clients never ask for it.
  var resultChanges = false

  init() {}

  /// Reads the features from an `init` message's `versions` object.
  init(versions: JSON?) {
    if let ours = versions?["sharing-instant"]?.stringValue, let v = Self.parse(ours) {
      resultChanges = Self.greater(v, (0, 1, 999))
    }
    guard let text = versions?["@instantdb/core"]?.stringValue, let v = Self.parse(text) else { return }
    patchPresence = Self.greater(v, (0, 17, 5))
    skipAttrs = Self.greater(v, (0, 20, 4))
    batchMessages = Self.greater(v, (0, 22, 75))
  }

  static func parse(_ text: String) -> (Int, Int, Int)? {
    var s = Substring(text)
    if s.hasPrefix("v") { s = s.dropFirst() }
    if s.hasSuffix("-dev") { s = s.dropLast(4) }
    let parts = s.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
    else { return nil }
    return (a, b, c)
  }

  static func greater(_ v: (Int, Int, Int), _ t: (Int, Int, Int)) -> Bool {
    if v.0 != t.0 { return v.0 > t.0 }
    if v.1 != t.1 { return v.1 > t.1 }
    return v.2 > t.2
  }
}
