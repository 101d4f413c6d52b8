import InstantCore
import InstantSchemaFixture
import SharingInstant
import Testing

@Suite("EntityKey query builder")
struct QueryBuilderTests {
  @Test("where, orderBy, limit and nested with all reach the InstaQL query")
  func everyModifierReachesTheQuery() throws {
    let key = Schema.posts
      .where(\.content, .ilike("%swift%"))
      .where("author.handle", .eq("alice"))
      .orderBy(\.content, .desc)
      .limit(5)
      .with(\.author) { $0.with(\.posts) { $0.where(\.content, .neq("draft")).limit(3) } }
    let expected: JSON = [
      "posts": [
        "$": [
          "where": ["content": ["$ilike": "%swift%"], "author.handle": "alice"],
          "order": ["content": "desc"],
          "limit": 5,
        ],
        "author": ["posts": ["$": ["where": ["content": ["$ne": "draft"]], "limit": 3]]],
      ]
    ]
    #expect(key.instaQL == expected)
  }

  @Test("Operators have their InstaQL spelling")
  func operators() {
    #expect(EntityKeyPredicate.gt(1).instaQL == ["$gt": 1])
    #expect(EntityKeyPredicate.lte(2.5).instaQL == ["$lte": 2.5])
    #expect(EntityKeyPredicate.in(["a", "b"]).instaQL == ["$in": ["a", "b"]])
    #expect(EntityKeyPredicate.isNull().instaQL == ["$isNull": true])
    #expect(EntityKeyPredicate.startsWith("ab").instaQL == ["$ilike": "ab%"])
    let either = Schema.todos.where(or: [{ $0.where(\.done, .eq(true)) }, { $0.where(\.title, .eq("x")) }])
    #expect(either.query.whereClause["or"] == [["done": true], ["title": "x"]])
  }

  @Test("A key path through an optional link becomes a dotted path")
  func dottedPath() {
    #expect(Schema.posts.where(\.author?.handle, .eq("a")).query.whereClause["author.handle"] == "a")
  }
}

@Suite("Query key paths on generated entities")
struct GeneratedKeyPathTests {
  @Test("Renamed attributes and boxed links use the schema's names")
  func schemaNames() {
    let tasks = InstantSchemaFixture.Schema.tasks.where(\.createdAt, .gt(0)).orderBy(\.dueAt, .desc).with(\.files)
    #expect(tasks.query.whereClause["created_at"] == ["$gt": 0])
    #expect(tasks.query.order == ["dueAt": "desc"])
    #expect(Array(tasks.query.links.keys) == ["$files"])
    let users = InstantSchemaFixture.Schema.instantUsers.with(\.person)
    #expect(Array(users.query.links.keys) == ["person"])
  }
}
