import OrderedCollections

/// What tests in this package look at inside a running server.
extension InstantLocalServer {
  /// How many sessions the app has open now: sockets, and `subscribe-query` streams.
  package func sessionCount(appID: String) async -> Int {
    guard let app = try? await registry.app(appID) else { return 0 }
    return await app.sessions.count
  }

  /// How many results the app made for subscriptions: evaluated whole, and kept current from what
  /// changed (``EntityLocalQuery``).
  package func resultCounts(appID: String) async -> (whole: Int, kept: Int) {
    guard let app = try? await registry.app(appID) else { return (0, 0) }
    let (all, kept) = await (app.refresh.evaluations, app.refresh.keptResults)
    return (all - kept, kept)
  }
}
