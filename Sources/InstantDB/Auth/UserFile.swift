import Foundation
import InstantCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the signed-in user (with its refresh token) is kept between launches: a JSON file next
/// to the client's database, readable by its owner only (0600), or nowhere for in-memory storage.
struct UserFile: Sendable {
  /// nil: memory only.
  let path: String?

  /// `<database>.user.json` for a SQLite database the client owns; nothing otherwise.
  init(storage: InstantStorage, problem: StorageProblem?) {
    guard case let .sqlite(url) = storage, problem?.kind != .inUse, problem?.kind != .unavailable else {
      path = nil
      return
    }
    path = url.path + ".user.json"
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The stored user's JSON, if any.
  func load() throws(Failure) -> JSON? {
    guard let path, FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "could not read the stored user at \(path)")
    }
    do { return try JSON.parse(bytes: data) } catch {
      throw Failure(description: "the stored user at \(path) is not JSON")
    }
  }

  /// Replaces the stored user (nil deletes it). The new file is written owner-only and renamed
  /// into place, so a crash leaves the old user or the new one, never half of one.
  func save(_ user: JSON?) throws(Failure) {
    guard let path else { return }
    guard let user else {
      if unlink(path) != 0 && errno != ENOENT { throw Failure(description: "could not delete \(path): \(Self.reason())") }
      return
    }
    let temporary = path + ".tmp"
    let fd = open(temporary, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
    guard fd >= 0 else { throw Failure(description: "could not create \(temporary): \(Self.reason())") }
    let bytes = Array(user.serialized().utf8)
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    // The mode of `open` is masked by the umask and ignored for a file that already existed.
    let modeSet = fchmod(fd, 0o600) == 0
    let synced = fsync(fd) == 0
    close(fd)
    guard written == bytes.count, modeSet, synced, rename(temporary, path) == 0 else {
      let reason = Self.reason()
      unlink(temporary)
      throw Failure(description: "could not write \(path): \(reason)")
    }
  }

  private static func reason() -> String { String(cString: strerror(errno)) }
}
