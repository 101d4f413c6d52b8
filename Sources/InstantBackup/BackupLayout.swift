/// The names and rules of the archive layout that the writer and the reader share.
///
/// ```
/// config.json                 first entry
/// entities/<namespace>.jsonl  zero or more, in byte order of their names
/// files/<location-id>         zero or more, after every entities/ entry
/// ```
enum BackupLayout {
  static let config = "config.json"
  static let entitiesPrefix = "entities/"
  static let entitiesSuffix = ".jsonl"
  static let filesPrefix = "files/"

  /// The entry of a namespace's rows.
  static func entitiesEntry(_ etype: String) -> String { entitiesPrefix + etype + entitiesSuffix }

  /// The entry of a `$files` blob.
  static func fileEntry(_ locationID: String) -> String { filesPrefix + locationID }

  /// The forward label of `$files.location-id`.
  static let locationIDLabel = "location-id"
  /// `$files`.
  static let filesNamespace = "$files"
  /// `$files.url`: derived from the file, never stored, so never in a backup.
  static func isDerived(etype: String, label: String) -> Bool { etype == "$files" && label == "url" }

  /// What an entry name is, once it has passed ``unsafeNameReason(_:)``.
  enum EntryRole: Equatable {
    case config
    case entities(etype: String)
    case file(locationID: String)
    case unknown
  }

  static func role(of name: String) -> EntryRole {
    if name == config { return .config }
    if name.hasPrefix(entitiesPrefix), name.hasSuffix(entitiesSuffix),
      name.utf8.count > entitiesPrefix.utf8.count + entitiesSuffix.utf8.count
    {
      let etype = String(name.dropFirst(entitiesPrefix.count).dropLast(entitiesSuffix.count))
      return etype.contains("/") ? .unknown : .entities(etype: etype)
    }
    if name.hasPrefix(filesPrefix) {
      let locationID = String(name.dropFirst(filesPrefix.count))
      return locationID.isEmpty || locationID.contains("/") ? .unknown : .file(locationID: locationID)
    }
    return .unknown
  }

  /// Why `name` could escape the directory it is extracted into, or `nil` when it cannot: a
  /// leading `/`, a backslash, a `.` or `..` component, an empty component, a NUL, a drive letter.
  static func unsafeNameReason(_ name: String) -> String? {
    if name.isEmpty { return "the entry name is empty" }
    if name.hasPrefix("/") { return "the entry name starts with \"/\"" }
    if name.contains("\\") { return "the entry name contains a backslash" }
    if name.utf8.contains(0) { return "the entry name contains a NUL character" }
    let components = name.split(separator: "/", omittingEmptySubsequences: false)
    if components.contains("..") { return "the entry name contains a \"..\" component" }
    if components.contains(".") { return "the entry name contains a \".\" component" }
    if components.dropLast().contains("") { return "the entry name contains an empty path component" }
    if let first = components.first, first.count == 2, first.last == ":" {
      return "the entry name starts with a drive letter"
    }
    return nil
  }

  /// Whether a location id can name a `files/` entry and a file in a directory.
  static func isSafeLocationID(_ id: String) -> Bool {
    !id.isEmpty && !id.contains("/") && unsafeNameReason(fileEntry(id)) == nil
  }

  // MARK: Namespaces

  /// Whether `etype` is a system namespace (its name starts with `$`).
  static func isSystemNamespace(_ etype: String) -> Bool { etype.hasPrefix("$") }

  /// Whether the reference's schema leaves `attr` out (`attr-model/remove-hidden`): system attrs
  /// outside `$users`, `$files` and `$streams`, `$files`' storage bookkeeping, `$streams`' machine
  /// fields. Their data is still backed up.
  static func isHiddenFromSchema(etype: String, label: String, isSystem: Bool) -> Bool {
    if isSystem && !["$users", "$files", "$streams"].contains(etype) { return true }
    if etype == "$files" && ["content-type", "content-disposition", "size", "location-id", "key-version"].contains(label) {
      return true
    }
    if etype == "$streams" && ["machineId", "hashedReconnectToken"].contains(label) { return true }
    return false
  }
}

extension String {
  /// Byte order of the UTF-8 encodings (how S3 lists keys and Postgres sorts `text` in the C locale).
  func utf8Less(_ other: String) -> Bool { utf8.lexicographicallyPrecedes(other.utf8) }

  /// UTF-16 code-unit order (Java's `String.compareTo`, used by Clojure's `sorted-map`).
  func utf16Less(_ other: String) -> Bool { utf16.lexicographicallyPrecedes(other.utf16) }
}
