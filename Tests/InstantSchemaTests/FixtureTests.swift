import Foundation
import InstantSchema
import InstantSchemaFixture
import SharingInstant
import Testing

/// The fixture target compiles checked-in generated code against SharingInstant on every
/// build; these tests keep that code equal to what the generator writes today and exercise it.
@Suite struct FixtureTests {
  @Test func checkedInFixtureMatchesTheGenerator() throws {
    let schema = TestSupport.fixtureDirectory.appendingPathComponent("instant.schema.ts").path
    let parsed = try InstantSchemaParser.parse(fileAt: schema)
    let output = SwiftGenerator(for: parsed).generate(parsed.schema)
    let stale = GeneratedFiles.stale(output.files, in: TestSupport.fixtureDirectory.appendingPathComponent("Generated").path)
    let fixture = "Tests/InstantSchemaFixture"
    #expect(stale.isEmpty, "Regenerate: swift run instant-schema plugin-generate --from \(fixture)/instant.schema.ts --to \(fixture)/Generated")
  }

  @Test func decodesDatesFromMillisecondsAndStrings() throws {
    let json = try TestSupport.fixture("rows/people-with-dates.json")
    let people = try JSONDecoder().decode([Person].self, from: Data(json.utf8))
    let expected = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(people[0].date == expected)
    #expect(people[1].date == expected)
    #expect(people[2].date == expected)
    #expect(people[3].date == expected)
    #expect(people[4].date == Date(timeIntervalSince1970: 1_699_920_000))
  }

  @Test func rejectsAnUnreadableDateWithItsValue() {
    let json = #"{"id": "a", "name": "Ada", "date": "next tuesday"}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Person.self, from: Data(json.utf8)) }
  }

  @Test func stringUnionsKeepUnknownValues() throws {
    #expect(TaskEntity.StatusValue(rawValue: "in-progress") == .inProgress)
    #expect(TaskEntity.StatusValue(rawValue: "unknown") == .unknownValue)
    #expect(TaskEntity.StatusValue(rawValue: "archived") == .unknown("archived"))
    #expect(TaskEntity.StatusValue.unknown("archived").rawValue == "archived")
    #expect(TaskEntity.StatusValue.allCases == [.todo, .inProgress, .done, .unknownValue])
  }

  @Test func roundTripsAnEntityWithRenamedKeysTypedJSONAndLinks() throws {
    let json = try TestSupport.fixture("rows/task.json")
    let task = try JSONDecoder().decode(TaskEntity.self, from: Data(json.utf8))
    #expect(task.contentType == "text/plain")
    #expect(task.private == true)
    #expect(task.status == .done)
    #expect(task.priority == nil)
    #expect(task.metadata?.address.street == "Main")
    #expect(task.checklist == [TaskEntity.ChecklistItem(label: "one", done: false)])
    #expect(task.extra == ["anything": [1, "two", nil]])
    #expect(task.owner?.email == "a@example.com")
    #expect(task.categories?.map(\.name) == ["Home"])
    let encoded = try JSONEncoder().encode(task)
    let decoded = try JSONDecoder().decode(TaskEntity.self, from: encoded)
    #expect(decoded == task)
  }

  /// Legacy dashboard exports declare every attribute a required `i.any()`, which the server never
  /// enforced: a row without one must still decode (as `null`), not fail the whole query.
  @Test func aMissingRequiredAnyAttributeDecodesAsNull() throws {
    var row = try TestSupport.fixture(JSON.self, "rows/task.json").objectValue ?? [:]
    row["extra"] = nil
    row["blob"] = .null
    let task = try JSONDecoder().decode(TaskEntity.self, from: Data(JSON.object(row).serialized().utf8))
    #expect(task.extra == .null)
    #expect(task.blob == .null)
    #expect(task.attributeValues["extra"] == .null)
    var missingTitle = row
    missingTitle["title"] = nil
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(TaskEntity.self, from: Data(JSON.object(missingTitle).serialized().utf8))
    }
  }

  @Test func cyclicHasOneLinksAreBoxed() {
    var segment = Segment(label: "child")
    segment.parent = Segment(label: "parent")
    #expect(segment.parent?.label == "parent")
    #expect(segment.parent?.parent == nil)
  }

  @Test func keysAndLinksCarryTheSchemaNames() {
    #expect(Schema.tasks.namespace == "tasks")
    #expect(Schema.instantUsers.namespace == "$users")
    #expect(Schema.journalEntries == EntityKey<JournalEntry>(namespace: "journal-entries"))
    #expect(Schema.Rooms.chat.type == "chat")
    #expect(Schema.Topics.Chat.typingStarted == TopicKey<ChatTypingStartedTopic>(roomType: "chat", topic: "typing-started"))
    #expect(Schema.Links.personUser.forward == InstantLink.Side(namespace: "people", label: "$user", has: .one))
    #expect(Schema.Links.personUser.isRequired)
    #expect(TaskEntity.links["$files"] == Schema.Links.taskFiles)
    #expect(InstantUser.links.keys.sorted() == ["person", "tasks"])
    #expect(Schema.Links.all.count == 7)
  }

  @Test func mutationsProduceInstaML() {
    let create = Category.create(id: "c1", name: "Home")
    #expect(create.instaML == ["create", "categories", "c1", ["name": "Home"]])
    let update = TaskEntity.update("t1", title: "New", estimate: .some(nil), status: .inProgress)
    #expect(update.instaML == ["update", "tasks", "t1", ["title": "New", "estimate": nil, "status": "in-progress"]])
    #expect(TaskEntity.link("t1", categories: ["c1", "c2"]).instaML == ["link", "tasks", "t1", ["categories": ["c1", "c2"]]])
    #expect(TaskEntity.unlink("t1", owner: "u1").instaML == ["unlink", "tasks", "t1", ["owner": "u1"]])
    #expect(JournalEntry.link("j1", class: "p1").arguments == ["class": "p1"])
    #expect(Status.delete("s1").instaML == ["delete", "statuses", "s1", [:]])
  }

  @Test func createMutationWritesDatesAsISOStrings() {
    let person = Person(id: "p1", name: "Ada", date: Date(timeIntervalSince1970: 1_700_000_000))
    #expect(person.createMutation.arguments == ["name": "Ada", "date": "2023-11-14T22:13:20.000Z"])
  }
}
