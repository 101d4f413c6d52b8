import Foundation
import Hummingbird
import InstantCore
import Logging
import NIOCore
import ServiceLifecycle

/// `POST /admin/subscribe-query` (the admin SDK's `subscribeQuery`): the query's results as
/// server-sent events, `data: <message>` each, for as long as the reader stays (docs/admin.md).
extension HTTPRoutes {
  func registerSubscribeQuery(on router: Router<HTTPRequestContext>) {
    router.post("/admin/subscribe-query") { request, _ in
      await subscribeQuery(request)
    }
  }

  private func subscribeQuery(_ request: Request) async -> Response {
    let app: AppDatabase
    let actor: Asker
    let query: JSON
    let inference: Bool
    do throws(ServerError) {
      let body = try await jsonBody(request)
      guard let q = body["query"], q != .null else {
        throw ServerError(.paramMissing, message: "Missing parameter: [\"body\" \"query\"]", hint: ["in": ["body", "query"]])
      }
      guard case .object = q else {
        throw ServerError(
          .paramMalformed, message: "Malformed parameter: [\"body\" \"query\"]",
          hint: ["in": ["body", "query"], "original-input": q])
      }
      (app, actor) = try await dataCall(request)
      query = q
      inference = body["inference?"]?.boolValue ?? false
    } catch {
      return failure(error)
    }

    let logger = logger
    let maxQueuedBytes = maxQueuedBytes
    let heartbeat = streamHeartbeat
    let clock = registry.clock
    let id = UUID().uuidString.lowercased()
    let sink = SessionSink(maxQueuedBytes: maxQueuedBytes) { queued in
      logger.warning(
        "a subscribe-query stream's reader is too slow: closing it",
        metadata: ["stream_id": "\(id)", "queued_bytes": "\(queued)", "max_queued_bytes": "\(maxQueuedBytes)"])
    }
    await app.openQueryStream(id: id, sink: sink, asker: actor, q: query, inference: inference)
    let streams = openStreams
    streams.add(id, sink)
    let body = ResponseBody { writer in
      // An idle stream sends a comment now and then: a write to a reader that went away fails,
      // and the session ends.
      let beat = Task {
        while !Task.isCancelled {
          try? await clock.sleep(for: heartbeat)
          sink.send(text: "")
        }
      }
      defer { beat.cancel() }
      do {
        try await withGracefulShutdownHandler {
          try await withTaskCancellationHandler {
            try await writer.write(ByteBuffer(string: "retry: 500\n\n"))
            while let frames = await sink.nextFrames() {
              var text = ""
              for frame in frames { text += frame.isEmpty ? ": heartbeat\n\n" : Self.event(frame) }
              try await writer.write(ByteBuffer(string: text))
            }
          } onCancel: {
            sink.finish()
          }
        } onGracefulShutdown: {
          // SIGTERM: as ``InstantLocalServer/stop()`` does, no new connection before the end.
          Task { await streams.finishAll() }
        }
        try await writer.finish(nil)
      } catch {
        logger.debug("subscribe-query stream ended", metadata: ["stream_id": "\(id)", "error": "\(error)"])
      }
      streams.remove(id)
      await app.closeSession(id)
    }
    return Response(
      status: .ok,
      headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("x-accel-buffering")!: "no"],
      body: body)
  }

  /// One server-sent event carrying `message` (a serialized JSON message: no line breaks).
  static func event(_ message: String) -> String { "data: " + message + "\n\n" }
}
