import Foundation
import Hummingbird
import InstantCore
import Logging
import NIOConcurrencyHelpers

/// A server's `$files` blobs (docs/files.md): one file per upload at
/// `<data file>.files/<app-id>/<location-id>` (for a server in memory, a temporary directory
/// removed when it stops), the signed URLs that serve them, and the sweep that removes the blobs
/// no `$files` row names any more, once they have waited ``gracePeriod``.
///
/// A blob is never changed: an upload writes a new one under a fresh location id (streamed to a
/// temporary file, then renamed into place), so a reader, a backup or a cached URL never sees a
/// half-written file.
final class LocalFiles: Sendable {
  /// `$files.location-id`.
  static let locationIDAttr = "96653230-13ff-ffff-2a34-b40fffffffff"

  let root: URL
  /// Whether ``root`` is a temporary directory of a server in memory, removed when it stops.
  let isTemporary: Bool
  let storage: LocalStorage
  /// The server's clock: signed URLs' times, upload tickets, the sweep's cut-off and interval.
  let clock: ServerClock
  let signer: FileURLSigner
  let maxUploadBytes: Int
  let gracePeriod: Duration
  let logger: Logger
  let fileIO = FileIO()
  private let state: NIOLockedValueBox<State>

  private struct State {
    /// The base of file URLs: the configured public URL, else the server's address once it listens.
    var baseURL: URL?
    /// `<app-id>/<location-id>` of uploads between their blob's rename and their row's commit,
    /// which the sweep leaves alone.
    var inFlight: Set<String> = []
    var sweeper: Task<Void, Never>?
    /// The deprecated flow's upload URLs not yet used: id → where it uploads, until when.
    var uploadTickets: [String: UploadTicket] = [:]
  }

  /// What a deprecated `signed-upload-url` allows: one upload to `path` of `appID` before `expires`.
  struct UploadTicket: Sendable {
    let appID: String
    let path: String
    let expires: Date
  }

  /// How long a deprecated upload URL may be used: the reference's 5 minutes.
  static let uploadTicketLifetime: TimeInterval = 5 * 60

  init(
    storage: LocalStorage, dataFile: String?, maxUploadBytes: Int, gracePeriod: Duration, publicURL: URL?,
    clock: ServerClock, logger: Logger
  ) throws(InstantLocalError) {
    self.clock = clock
    self.storage = storage
    self.maxUploadBytes = maxUploadBytes
    self.gracePeriod = gracePeriod
    self.logger = logger
    if let dataFile {
      root = URL(fileURLWithPath: dataFile + ".files", isDirectory: true)
      isTemporary = false
    } else {
      root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "instant-local-files-\(UUID().uuidString.lowercased())", isDirectory: true)
      isTemporary = true
    }
    try storage.prepareFiles()
    signer = FileURLSigner(secret: try storage.secret(named: "file-urls"))
    state = NIOLockedValueBox(State(baseURL: publicURL))
  }

  // MARK: Places

  /// An app's blobs (what backups read and restores fill).
  func directory(_ appID: String) -> URL { root.appendingPathComponent(appID, isDirectory: true) }

  /// One blob. `locationID` must be a UUID (``isLocationID(_:)``): it becomes a file name.
  func blob(appID: String, locationID: String) -> URL {
    directory(appID).appendingPathComponent(locationID, isDirectory: false)
  }

  /// Uploads in progress, renamed into an app's directory once complete.
  var uploads: URL { root.appendingPathComponent(".uploads", isDirectory: true) }

  /// Whether `text` can name a blob: a location id is a UUID (no `/`, no `..`).
  static func isLocationID(_ text: String) -> Bool { UUID(uuidString: text) != nil }

  // MARK: Lifecycle

  /// The server listens at `baseURL` (used for file URLs unless a public URL was configured):
  /// leftovers of uploads cut off by a crash are removed and the sweep starts.
  func serverStarted(baseURL: URL?) {
    try? FileManager.default.removeItem(at: uploads)
    let interval = max(.seconds(1), min(gracePeriod, .seconds(60)))
    let sweeper = Task.detached { [weak self, clock] in
      while !Task.isCancelled {
        try? await clock.sleep(for: interval)
        guard let self, !Task.isCancelled else { return }
        do {
          _ = try self.sweep()
        } catch {
          self.logger.error("the $files sweep failed: \(error)")
        }
      }
    }
    state.withLockedValue { state in
      if state.baseURL == nil { state.baseURL = baseURL }
      state.sweeper?.cancel()
      state.sweeper = sweeper
    }
  }

  /// The server stopped: the sweep stops, and a server in memory removes its temporary directory
  /// (started again, it keeps its `$files` rows, whose blobs are gone: 404).
  func serverStopped(configuredURL: URL?) {
    state.withLockedValue { state in
      state.sweeper?.cancel()
      state.sweeper = nil
      state.baseURL = configuredURL
    }
    if isTemporary { try? FileManager.default.removeItem(at: root) }
  }

  // MARK: URLs

  /// The address clients reach the server at (`--public-url`, else the bound one); `nil` before
  /// the server listens.
  func publicBase() -> URL? { state.withLockedValue { $0.baseURL } }

  /// The signed URL of one blob, made now; `nil` before the server listens (no address yet).
  func url(appID: String, locationID: String, now given: Date? = nil) -> String? {
    let now = given ?? clock.now
    guard let base = state.withLockedValue({ $0.baseURL }) else { return nil }
    return signer.url(base: base, appID: appID, locationID: locationID, now: now)
  }

  // MARK: Upload URLs (the deprecated flow)

  /// A deprecated upload URL (`PUT <base>/storage/<id>/consume-upload-url`) for one upload to
  /// `path`, usable once within ``uploadTicketLifetime``; `nil` before the server listens. Kept
  /// in memory: a restart forgets them, as a client that waited 5 minutes would have to ask again.
  func uploadURL(appID: String, path: String, now given: Date? = nil) -> String? {
    let now = given ?? clock.now
    let id = UUID().uuidString.lowercased()
    let base = state.withLockedValue { state -> URL? in
      state.uploadTickets = state.uploadTickets.filter { $0.value.expires > now }
      state.uploadTickets[id] = UploadTicket(appID: appID, path: path, expires: now.addingTimeInterval(Self.uploadTicketLifetime))
      return state.baseURL
    }
    return base.map { $0.appendingPathComponent("storage/\(id)/consume-upload-url").absoluteString }
  }

  /// Uses up the upload URL `id`: its ticket if it was given and has not expired. Either way it
  /// cannot be used again (the reference deletes the row before it looks at the time).
  func consumeUploadTicket(_ id: String) -> UploadTicket? {
    let now = clock.now
    return state.withLockedValue { $0.uploadTickets.removeValue(forKey: id) }.flatMap { $0.expires > now ? $0 : nil }
  }

  // MARK: Uploads

  /// A request body cut at `limit` bytes: past it, the rest is read and dropped (so the client,
  /// still sending, gets the refusal rather than a reset connection) up to `drainLimit`, where it
  /// stops with ``UploadTooLarge``; `exceeded` tells the caller.
  struct LimitedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer
    let base: Base
    let limit: Int
    let drainLimit: Int
    let exceeded: NIOLockedValueBox<Bool>

    struct AsyncIterator: AsyncIteratorProtocol {
      var base: Base.AsyncIterator
      let limit: Int
      let drainLimit: Int
      let exceeded: NIOLockedValueBox<Bool>
      var total = 0

      mutating func next() async throws -> ByteBuffer? {
        while let chunk = try await base.next() {
          total += chunk.readableBytes
          if total <= limit { return chunk }
          exceeded.withLockedValue { $0 = true }
          if total > drainLimit { throw UploadTooLarge() }
        }
        return nil
      }
    }

    func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(base: base.makeAsyncIterator(), limit: limit, drainLimit: drainLimit, exceeded: exceeded)
    }
  }

  struct UploadTooLarge: Error {}

  /// How much of a refused upload is read (and dropped) before the refusal is sent.
  var drainLimit: Int { max(maxUploadBytes * 2, 64 << 20) }

  /// An upload written to a temporary file, not yet in place.
  struct PendingUpload: Sendable {
    let temporary: URL
    let size: Int
  }

  /// Streams `body` to a temporary file (never holding more than a chunk in memory); throws
  /// ``UploadTooLarge`` past ``maxUploadBytes``, leaving nothing behind.
  func receive(_ body: RequestBody, context: some RequestContext) async throws -> PendingUpload {
    try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
    let temporary = uploads.appendingPathComponent(UUID().uuidString.lowercased(), isDirectory: false)
    let exceeded = NIOLockedValueBox(false)
    do {
      try await fileIO.writeFile(
        contents: LimitedBody(base: body, limit: maxUploadBytes, drainLimit: drainLimit, exceeded: exceeded),
        path: temporary.path, context: context)
      if exceeded.withLockedValue({ $0 }) { throw UploadTooLarge() }
      let size = try FileManager.default.attributesOfItem(atPath: temporary.path)[.size] as? Int ?? 0
      return PendingUpload(temporary: temporary, size: size)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }

  /// Reads and drops what is left of a refused request's body (up to ``drainLimit``), so the
  /// client gets the refusal rather than a connection reset while it still sends.
  func drain(_ body: RequestBody) async {
    var total = 0
    do {
      for try await chunk in body {
        total += chunk.readableBytes
        if total > drainLimit { return }
      }
    } catch {}
  }

  /// Moves a received upload into place as `locationID`'s blob, queued for the sweep first (a
  /// crash before its row is committed leaves a blob the sweep removes) and protected from the
  /// sweep until ``finishPlacing(appID:locationID:)``.
  func place(_ upload: PendingUpload, appID: String, locationID: String) throws(InstantLocalError) {
    state.withLockedValue { _ = $0.inFlight.insert(appID + "/" + locationID) }
    do {
      try storage.queueFileSweep(appID: appID, locationID: locationID, at: clock.nowMillis)
      try FileManager.default.createDirectory(at: directory(appID), withIntermediateDirectories: true)
      guard rename(upload.temporary.path, blob(appID: appID, locationID: locationID).path) == 0 else {
        throw InstantLocalError.storage("cannot move an upload into place: \(String(cString: strerror(errno)))")
      }
    } catch {
      finishPlacing(appID: appID, locationID: locationID)
      try? FileManager.default.removeItem(at: upload.temporary)
      throw (error as? InstantLocalError) ?? .storage("cannot store an upload: \(LocalStorage.sentence(error))")
    }
  }

  /// The upload's row is committed (or failed, and its blob removed): the sweep may look at it.
  func finishPlacing(appID: String, locationID: String) {
    state.withLockedValue { _ = $0.inFlight.remove(appID + "/" + locationID) }
  }

  // MARK: The sweep

  /// Removes the blobs whose `$files` row has been gone for at least ``gracePeriod`` (deleted,
  /// or replaced by an upload); a blob whose location a row names again is kept. Returns how
  /// many blobs were removed.
  @discardableResult
  func sweep(now given: Date? = nil) throws(InstantLocalError) -> Int {
    let cutoff = (given ?? clock.now).timeIntervalSince1970 * 1000 - gracePeriod.seconds * 1000
    var removed = 0
    while true {
      let due = try storage.dueFileSweeps(queuedBefore: cutoff)
      var finished: [Int64] = []
      for entry in due {
        if let locationID = entry.locationID, Self.isLocationID(locationID), AppRegistry.isUUID(entry.appID) {
          if state.withLockedValue({ $0.inFlight.contains(entry.appID + "/" + locationID) }) { continue }
          if !entry.isLive {
            let url = blob(appID: entry.appID, locationID: locationID)
            if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
          }
        }
        finished.append(entry.rowID)
      }
      try storage.finishFileSweeps(finished)
      if due.count < 1000 || finished.isEmpty { break }
    }
    if removed > 0 { logger.info("swept \(removed) $files blob(s)") }
    return removed
  }
}
