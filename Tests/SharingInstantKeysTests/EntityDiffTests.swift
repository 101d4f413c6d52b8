import InstantCore
import Testing

@testable import SharingInstant

@Suite("Diffing against the key's own snapshot")
struct EntityDiffTests {
  private func snapshot(_ entities: [some EntityIdentifiable]) throws -> EntityDiff.Snapshot {
    var result = EntityDiff.Snapshot()
    for entity in entities { result[entity.id] = try EntityDiff.encode(entity) }
    return result
  }

  @Test("New ids are created, changed attributes updated alone, missing ids deleted")
  func createUpdateDelete() throws {
    let kept = Todo(title: "Keep")
    let edited = Todo(title: "Old")
    let removed = Todo(title: "Gone")
    let added = Todo(title: "New")
    var after = edited
    after.done = true
    let ops = EntityDiff.ops(
      namespace: "todos", node: Schema.todos.query,
      old: try snapshot([kept, edited, removed]), new: try snapshot([kept, after, added]))
    #expect(
      ops == [
        .update("todos", .id(edited.id), ["done": true], upsert: false),
        .create("todos", .id(added.id), ["title": "New", "done": false]),
        .delete("todos", .id(removed.id)),
      ])
  }

  @Test("Removing a post from an embedded author's posts unlinks it and sends nothing of the others")
  func nestedLinks() throws {
    let p2 = Post(content: "second")
    let p3 = Post(content: "third")
    let author = Profile(handle: "alice", posts: [p2, p3])
    let post = Post(content: "first", author: author)
    var edited = post
    edited.content = "first, edited"
    edited.author?.posts?.removeAll { $0.id == p3.id }
    edited.author?.bio = "hi"
    let key = Schema.posts.with(\.author) { $0.with(\.posts) }
    let ops = EntityDiff.ops(
      namespace: "posts", node: key.query, old: try snapshot([post]), new: try snapshot([edited]))
    #expect(
      ops == [
        .update("posts", .id(post.id), ["content": "first, edited"], upsert: false),
        .update("profiles", .id(author.id), ["bio": "hi"], upsert: false),
        .unlink("profiles", .id(author.id), ["posts": [.string(p3.id)]]),
      ])
  }
}
