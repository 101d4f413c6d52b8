import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("where: $like and $ilike") struct WhereLikeTests {
  @Test("%…% contains") func likeContains() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$like":"%a%"}}}}}"#, ["i3", "i6"])
  }

  @Test("a like pattern is anchored") func likeAnchored() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$like":"a"}}}}}"#, [])
  }

  @Test("no wildcard is exact equality") func likeExact() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$like":"aaa"}}}}}"#, ["i6"])
  }

  @Test("_ is one character") func likeUnderscore() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$like":"a_"}}}}}"#, ["i3"])
  }

  @Test("$like is case-sensitive") func likeCaseSensitive() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$like":"bob"}}}}}"#, [])
  }

  @Test("$ilike is not") func ilikeCaseInsensitive() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$ilike":"bob"}}}}}"#, ["i5"])
  }

  @Test("$ilike with wildcards") func ilikeWildcard() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"$ilike":"r%"}}}}}"#, ["i1", "i3", "i5"])
  }

  @Test("regex metacharacters are literal") func likeMetacharactersLiteral() throws {
    try expectLabels(#"{"items":{"$":{"where":{"name":{"$like":"b%.*"}}}}}"#, ["i6"])
  }

  @Test("a dot is not any character") func likeMetaDotIsNotAny() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$like":"a."}}}}}"#, [])
  }

  @Test("_ in the pattern matches a literal _ too") func likePercentUnderscoreInValue() throws {
    try expectLabels(#"{"items":{"$":{"where":{"name":{"$like":"b%__.*"}}}}}"#, ["i6"])
  }

  @Test("non-string values never match") func likeNonStringNeverMatches() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$like":"%"}}}}}"#, [])
  }

  @Test("like through a link path") func likeThroughLink() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.code":{"$like":"%0"}}}}}"#, ["o2", "o1"])
  }
}
