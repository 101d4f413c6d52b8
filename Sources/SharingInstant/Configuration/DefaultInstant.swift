import Dependencies
import Foundation
import InstantDB
import IssueReporting

extension DependencyValues {
  /// The client every key uses unless one is passed to it.
  ///
  /// ```swift
  /// prepareDependencies { $0.defaultInstant = InstantClient(appId: "…") }
  /// ```
  ///
  /// Tests and previews get a client that never touches the network; several clients can live in
  /// one process (pass `client:` to a key, or override the dependency in `withDependencies`).
  public var defaultInstant: InstantClient {
    get { self[DefaultInstantKey.self] }
    set { self[DefaultInstantKey.self] = newValue }
  }
}

private enum DefaultInstantKey: DependencyKey {
  static var liveValue: InstantClient {
    reportIssue(
      """
      No InstantDB client is configured. Set one at app launch:
      prepareDependencies { $0.defaultInstant = InstantClient(appId: "…") }
      """
    )
    return InstantClient.offline(appId: "unconfigured-app-id")
  }

  static var testValue: InstantClient { InstantClient.offline(appId: "test-app-id") }
  static var previewValue: InstantClient { InstantClient.offline(appId: "preview-app-id") }
}

extension InstantClient {
  /// A client with in-memory storage whose every connection attempt fails at once, so it never
  /// touches the network: writes queue up and queries answer from local writes only.
  public static func offline(appId: String) -> InstantClient {
    InstantClient(appId: appId, storage: .memory, transport: OfflineTransport())
  }
}

/// A transport that refuses to connect.
private struct OfflineTransport: WebSocketTransport {
  func connect(to url: URL) async throws -> any WebSocketConnection {
    throw WebSocketTransportError("this client is offline by construction (tests and previews)")
  }
}
