import Foundation
public import InstantCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One message of ``InstantAdmin/subscribeQuery(_:ruleParams:inference:)``.
public enum AdminQueryUpdate: Sendable, Equatable {
  /// The query's result now, `{namespace: [entity, …]}` as ``InstantAdmin/query(_:ruleParams:inference:)`` answers.
  case result(JSON)
  /// The query could not run (its data or schema changed under it); it stays subscribed, and its
  /// next result comes when it runs again.
  case error(InstantAdminError)
}

extension InstantAdmin {
  /// The query's results as they change, over server-sent events (`db.subscribeQuery` of
  /// `@instantdb/admin`): the first result at once, then a new one after every transaction that
  /// changes it, made by anyone. Under the app's rules for ``asUser(email:)`` and ``asGuest()``.
  ///
  /// ```swift
  /// for try await update in admin.subscribeQuery(["orders": ["$": ["where": ["status": "new"]]]]) {
  ///   if case let .result(data) = update { notify(data["orders"]) }
  /// }
  /// ```
  ///
  /// A dropped connection is opened again (after the delay the server asks for, half a second,
  /// growing to 10 seconds while it stays unreachable), and the result then comes again. The
  /// stream ends when the task reading it is cancelled or stops reading; it throws
  /// ``InstantAdminError`` when the server refuses the subscription (the token, the query).
  ///
  /// - Parameters:
  ///   - query: the InstaQL query.
  ///   - ruleParams: what rules read as `ruleParams`.
  ///   - inference: has-one links as one entity (or `null`) rather than an array, as the admin SDK
  ///     asks when it has a schema.
  public func subscribeQuery(
    _ query: JSON, ruleParams: JSONObject? = nil, inference: Bool = false
  ) -> AsyncThrowingStream<AdminQueryUpdate, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: AdminQueryUpdate.self)
    let body: JSON = ["query": Self.withRuleParams(query, ruleParams), "inference?": .bool(inference)]
    let request: URLRequest
    do {
      var made = try self.request(
        "POST", "admin/subscribe-query", headers: ["content-type": "application/json", "accept": "text/event-stream"],
        rawBody: Data(body.serialized().utf8))
      made.timeoutInterval = 300
      request = made
    } catch {
      continuation.finish(throwing: error)
      return stream
    }
    let reader = Task { await Self.follow(request, into: continuation) }
    continuation.onTermination = { _ in reader.cancel() }
    return stream
  }

  /// Reads the stream, connecting again whenever it drops, until cancelled or refused.
  private static func follow(
    _ request: URLRequest, into continuation: AsyncThrowingStream<AdminQueryUpdate, any Error>.Continuation
  ) async {
    var delay = Duration.zero
    while !Task.isCancelled {
      let connection = EventStreamConnection(request)
      var parser = EventStreamParser()
      var status = 0
      var refusal = Data()
      var heard = false
      await withTaskCancellationHandler {
        for await happening in connection.happenings {
          switch happening {
          case let .response(code):
            status = code
          case let .data(bytes) where status != 200:
            refusal.append(bytes)
          case let .data(bytes):
            for event in parser.feed(bytes) {
              heard = true
              if let update = Self.update(event) { continuation.yield(update) }
            }
          case .ended:
            break
          }
        }
      } onCancel: {
        connection.cancel()
      }
      if status != 0 && status != 200 {
        let answer = (try? JSON.parse(bytes: refusal)) ?? ["message": .string(String(decoding: refusal, as: UTF8.self))]
        continuation.finish(throwing: InstantAdminError(serverAnswer: answer, status: status))
        return
      }
      // The server's delay after a stream that worked; doubling while it cannot be reached.
      delay = heard ? .milliseconds(parser.retryMilliseconds ?? 500) : min(max(delay * 2, .milliseconds(500)), .seconds(10))
      try? await Task.sleep(for: delay)
    }
    continuation.finish()
  }

  /// What one event's message means to a reader: a result, an error, or nothing (`sse-init`).
  static func update(_ event: String) -> AdminQueryUpdate? {
    guard let message = try? JSON.parse(event) else { return nil }
    switch message["op"]?.stringValue.flatMap(ServerOp.init(rawValue:)) {
    case .addQueryOK?:
      return message["result"].map(AdminQueryUpdate.result)
    case .refreshOK?:
      return message["computations"]?[0]?["instaql-result"].map(AdminQueryUpdate.result)
    case .error?:
      return .error(InstantAdminError(serverAnswer: message, status: message["status"]?.intValue ?? 400))
    default:
      return nil
    }
  }
}
