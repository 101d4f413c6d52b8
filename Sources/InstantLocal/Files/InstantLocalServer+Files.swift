package import Foundation

/// The server's `$files` blobs, for tests and tools in this package.
extension InstantLocalServer {
  /// Runs the sweep now, as if it were `now` (the server clock's time by default; it also runs by
  /// itself about every minute): removes
  /// the blobs whose row has been gone for ``InstantLocalConfiguration/fileGracePeriod``.
  /// Returns how many it removed.
  @discardableResult
  package nonisolated func sweepFiles(now: Date? = nil) throws(InstantLocalError) -> Int {
    try files.sweep(now: now)
  }

  /// Where the blob at `locationID` of `appID` is kept.
  package nonisolated func blobFile(appID: String, locationID: String) -> URL {
    files.blob(appID: appID, locationID: locationID)
  }

  /// The signed URL of a blob as it would have been made at `now` (an old `now` makes an expired
  /// one); `nil` before the server listens.
  package nonisolated func fileURL(appID: String, locationID: String, madeAt now: Date) -> String? {
    files.url(appID: appID, locationID: locationID, now: now)
  }

  /// A deprecated upload URL for `path` as `signed-upload-url` would have given it at `now` (an
  /// old `now` makes an expired one), with no rule checked; `nil` before the server listens.
  package nonisolated func uploadURL(appID: String, path: String, madeAt now: Date) -> String? {
    files.uploadURL(appID: appID, path: path, now: now)
  }

  /// Where blobs are kept: `<data file>.files`, or a temporary directory in memory.
  package nonisolated var filesDirectory: URL { files.root }
}
