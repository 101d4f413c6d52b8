import Foundation
public import Logging
import InstantCore
import NIOConcurrencyHelpers
import OrderedCollections

/// Structured logs: one JSON object per line (`instant-local serve --log-format json`), for a log
/// collector (journald's JSON output, Loki, Vector, CloudWatch) to index by field rather than parse
/// sentences.
///
/// ```json
/// {"time":"2026-11-29T12:00:00.123Z","level":"notice","label":"instant-local","message":"refused a connection","peer":"203.0.113.9","reason":"…"}
/// ```
///
/// `time` (UTC, milliseconds), `level`, `label` and `message` come first; then the logger's
/// metadata and the line's own, by key (a line's key wins over the logger's). A metadata key named
/// like one of the four is written with a `meta.` prefix rather than replacing it. Nested metadata
/// becomes nested JSON; a string that is not valid JSON text is escaped, never cut, so every line
/// parses. What reaches a log is chosen where it is written, the same in either format: no token or
/// password, and a magic code only without a mailer (development; docs/security.md, rule 19).
public struct JSONLogHandler: LogHandler {
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?
  public var logLevel: Logger.Level = .info
  let label: String
  let sink: Sink

  /// Where lines go: each is written whole, with its newline, under one lock, so lines from
  /// concurrent tasks never interleave.
  public final class Sink: Sendable {
    let write: NIOLockedValueBox<@Sendable (String) -> Void>

    public init(_ write: @escaping @Sendable (String) -> Void) { self.write = NIOLockedValueBox(write) }

    /// Standard error, unbuffered: a line is out before the process can be killed.
    public static let standardError = Sink { line in
      FileHandle.standardError.write(Data(line.utf8))
    }

    func emit(_ line: String) { write.withLockedValue { $0(line) } }
  }

  public init(label: String, sink: Sink = .standardError) {
    self.label = label
    self.sink = sink
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    sink.emit(line(event, at: Date()))
  }

  /// The line `event` is written as at `time`, newline included.
  func line(_ event: LogEvent, at time: Date) -> String {
    var object: JSONObject = [
      "time": .string(Self.timestamp(time)), "level": .string(event.level.rawValue), "label": .string(label),
      "message": .string(event.message.description),
    ]
    var merged = metadata
    if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
    if let own = event.metadata { merged.merge(own) { _, new in new } }
    if let error = event.error, merged["error"] == nil { merged["error"] = .string("\(error)") }
    for key in merged.keys.sorted() {
      let name = object[key] == nil ? key : "meta.\(key)"
      object[name] = Self.json(merged[key]!)
    }
    return JSON.object(object).serialized() + "\n"
  }

  static func json(_ value: Logger.Metadata.Value) -> JSON {
    switch value {
    case let .string(text): .string(text)
    case let .stringConvertible(value): .string(value.description)
    case let .array(values): .array(values.map(json))
    case let .dictionary(values): .object(JSONObject(uniqueKeysWithValues: values.keys.sorted().map { ($0, json(values[$0]!)) }))
    }
  }

  /// ISO 8601 in UTC with milliseconds, as collectors parse it.
  static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
  }
}
