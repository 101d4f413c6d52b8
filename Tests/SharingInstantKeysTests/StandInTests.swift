import Foundation
#if canImport(Observation)
  import Observation
#endif
import SharingInstant
import Testing

/// A key over a value in memory that counts its saves and lets the test push values.
private final class Store: @unchecked Sendable {
  let lock = NSLock()
  var saved: [[String]] = []
  var subscriber: SharedSubscriber<[String]>?
}

private struct TestKey: SharedKey {
  let name: String
  let store: Store
  var id: String { name }

  func load(context: LoadContext<[String]>, continuation: LoadContinuation<[String]>) {
    continuation.resume(returning: ["loaded"])
  }

  func subscribe(context: LoadContext<[String]>, subscriber: SharedSubscriber<[String]>) -> SharedSubscription {
    store.lock.withLock { store.subscriber = subscriber }
    return SharedSubscription {}
  }

  func save(_ value: [String], context: SaveContext, continuation: SaveContinuation) {
    store.lock.withLock { store.saved.append(value) }
    continuation.resume()
  }
}

@Suite("Sharing stand-in")
struct StandInTests {
  @Test("Keys with one id share one reference; withLock saves; the subscriber's values and errors arrive")
  func oneReferencePerID() throws {
    let store = Store()
    let name = "standin-\(UUID())"
    let first = Shared(wrappedValue: [], TestKey(name: name, store: store))
    let second = Shared(wrappedValue: ["ignored"], TestKey(name: name, store: Store()))
    #expect(first.wrappedValue == ["loaded"])
    #expect(second.wrappedValue == ["loaded"])

    second.withLock { $0.append("x") }
    #expect(first.wrappedValue == ["loaded", "x"])
    #expect(store.saved == [["loaded", "x"]])

    let subscriber = try #require(store.subscriber)
    subscriber.yield(throwing: CocoaError(.fileNoSuchFile))
    #expect(first.loadError != nil)
    subscriber.yield(["pushed"])
    #expect(first.loadError == nil)
    #expect(second.wrappedValue == ["pushed"])
    subscriber.yieldLoading(true)
    #expect(first.isLoading)
  }

  @Test("Dynamic member projection reads and writes through the parent")
  func projection() {
    struct Settings { var name: String; var count: Int }
    let settings = Shared(value: Settings(name: "a", count: 0))
    let count: Shared<Int> = settings.count
    count.withLock { $0 += 2 }
    #expect(settings.wrappedValue.count == 2)
    let reader = SharedReader(settings)
    let name: SharedReader<String> = reader.name
    #expect(name.wrappedValue == "a")
  }

  // The stand-in's own Observation. With the `PointFreeSharing` trait, Observation is
  // swift-sharing's business (which, off the main thread, posts its notifications to the main
  // queue), so this test is the stand-in's only.
  #if canImport(Observation) && !PointFreeSharing
    @Test("Observation: reading the value tracks it; a value from the key fires onChange")
    func observation() throws {
      let store = Store()
      let shared = Shared(wrappedValue: [], TestKey(name: "standin-\(UUID())", store: store))
      let fired = Store()
      withObservationTracking {
        _ = shared.wrappedValue
      } onChange: {
        fired.lock.withLock { fired.saved.append(["changed"]) }
      }
      let subscriber = try #require(store.subscriber)
      subscriber.yield(["new"])
      #expect(fired.lock.withLock { fired.saved.count } == 1)
    }
  #endif
}
