import OrderedCollections

/// What tests in this package look at inside a running server.
extension InstantLocalServer {
  /// How many sessions the app has open now: sockets, and `subscribe-query` streams.
  package func sessionCount(appID: String) async -> Int {
    guard let app = try? await registry.app(appID) else { return 0 }
    return await app.sessions.count
  }
}
