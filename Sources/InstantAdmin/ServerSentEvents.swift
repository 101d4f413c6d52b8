import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `text/event-stream` response read as it arrives: `URLSession`'s delegate calls turned into an
/// async sequence of what happened, and the events cut out of the bytes.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  enum Happening: Sendable {
    case response(status: Int)
    case data(Data)
    case ended((any Error)?)
  }

  let happenings: AsyncStream<Happening>
  private let continuation: AsyncStream<Happening>.Continuation
  private var session: URLSession!

  /// Starts `request`; ``happenings`` tells what comes back until ``cancel()`` or the end.
  init(_ request: URLRequest) {
    (happenings, continuation) = AsyncStream.makeStream(of: Happening.self)
    super.init()
    session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)
    session.dataTask(with: request).resume()
  }

  func cancel() {
    session.invalidateAndCancel()
    continuation.finish()
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    continuation.yield(.response(status: (response as? HTTPURLResponse)?.statusCode ?? 0))
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    continuation.yield(.data(data))
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    continuation.yield(.ended(error))
    continuation.finish()
    session.finishTasksAndInvalidate()
  }
}

/// Cuts server-sent events out of a byte stream (the WHATWG `text/event-stream` format): an event
/// ends at a blank line; its `data:` lines are joined with line breaks; `retry:` sets the
/// reconnection delay; lines starting with `:` are comments.
struct EventStreamParser: Sendable {
  private var pending = Data()
  /// The delay the server asked for before reconnecting, in milliseconds.
  private(set) var retryMilliseconds: Int?

  /// The `data` of each event completed by `bytes`.
  mutating func feed(_ bytes: Data) -> [String] {
    pending.append(bytes)
    var events: [String] = []
    while let end = Self.blankLine(in: pending) {
      let block = String(decoding: pending[pending.startIndex..<end.lowerBound], as: UTF8.self)
      pending = Data(pending[end.upperBound...])
      var data: [Substring] = []
      var sawData = false
      for line in block.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
        if line.hasPrefix(":") { continue }
        let (field, value) = Self.field(line)
        switch field {
        case "data":
          data.append(value)
          sawData = true
        case "retry":
          if let ms = Int(value), ms >= 0 { retryMilliseconds = ms }
        default: continue
        }
      }
      if sawData { events.append(data.joined(separator: "\n")) }
    }
    return events
  }

  private static func field(_ line: Substring) -> (Substring, Substring) {
    guard let colon = line.firstIndex(of: ":") else { return (line, "") }
    var value = line[line.index(after: colon)...]
    if value.first == " " { value = value.dropFirst() }
    return (line[..<colon], value)
  }

  /// Where the first blank line (`\n\n`, `\r\n\r\n` or `\r\r`) is.
  private static func blankLine(in data: Data) -> Range<Data.Index>? {
    var best: Range<Data.Index>?
    for separator in ["\n\n", "\r\n\r\n", "\r\r"] {
      if let found = data.range(of: Data(separator.utf8)), best == nil || found.lowerBound < best!.lowerBound { best = found }
    }
    return best
  }
}
