import Foundation
import InstantCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the signed-in user (with its refresh token) is kept between launches: on Apple platforms
/// the Keychain (a generic password for this database, this device only, readable after the first
/// unlock); elsewhere a JSON file next to the client's database, readable by its owner only (0600);
/// nowhere for in-memory storage.
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
    #if canImport(Security)
      guard let path, let data = try Keychain.read(account: path) else { return nil }
      do { return try JSON.parse(bytes: Array(data)) } catch {
        throw Failure(description: "the stored user in the Keychain is not JSON")
      }
    #else
      return try loadFile()
    #endif
  }

  /// Replaces the stored user (nil deletes it).
  func save(_ user: JSON?) throws(Failure) {
    #if canImport(Security)
      guard let path else { return }
      try Keychain.write(user.map { Data($0.serialized().utf8) }, account: path)
    #else
      try saveFile(user)
    #endif
  }

  /// The user from the file, if there is one.
  func loadFile() throws(Failure) -> JSON? {
    guard let path, FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "could not read the stored user at \(path)")
    }
    do { return try JSON.parse(bytes: data) } catch {
      throw Failure(description: "the stored user at \(path) is not JSON")
    }
  }

  /// Replaces the user in the file (nil deletes it). The new file is written owner-only and
  /// renamed into place, so a crash leaves the old user or the new one, never half of one.
  func saveFile(_ user: JSON?) throws(Failure) {
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

#if canImport(Security)
  import Security

  /// The user's item in the Keychain: a generic password under one service, one account per
  /// database path, so two clients (two databases) keep two users. Not compiled on Linux, where
  /// this project is built and tested: the Apple build is where it is checked.
  enum Keychain {
    static let service = "sharing-instant.user"

    static func read(account: String) throws(UserFile.Failure) -> Data? {
      let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
        kSecAttrAccount as String: account, kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitOne,
      ]
      var item: CFTypeRef?
      let status = SecItemCopyMatching(query as CFDictionary, &item)
      switch status {
      case errSecSuccess: return item as? Data
      case errSecItemNotFound: return nil
      default: throw UserFile.Failure(description: "the Keychain could not read the stored user (OSStatus \(status))")
      }
    }

    /// Stores `data` (nil deletes the item).
    static func write(_ data: Data?, account: String) throws(UserFile.Failure) {
      let item: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
        kSecAttrAccount as String: account,
      ]
      guard let data else {
        let status = SecItemDelete(item as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
          throw UserFile.Failure(description: "the Keychain could not delete the stored user (OSStatus \(status))")
        }
        return
      }
      var status = SecItemUpdate(item as CFDictionary, [kSecValueData as String: data] as CFDictionary)
      if status == errSecItemNotFound {
        var added = item
        added[kSecValueData as String] = data
        added[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        status = SecItemAdd(added as CFDictionary, nil)
      }
      guard status == errSecSuccess else {
        throw UserFile.Failure(description: "the Keychain could not store the user (OSStatus \(status))")
      }
    }
  }
#endif
