/// Why a backup could not be written, or why an archive was refused.
///
/// Refusals name the archive entry (`config.json`, `entities/posts.jsonl`, `files/<location-id>`)
/// and, for `.jsonl` entries, the 1-based line, so a person can open the file and look.
/// ``description`` reads `entities/posts.jsonl, line 3: Missing attr for posts.subtitle`.
public struct BackupError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem this is, for callers and tests that branch on it.
  public enum Kind: String, Sendable, Hashable {
    /// Reading or writing a file failed (the message carries the system's reason).
    case io
    /// The archive is not a zip file this reader can open (no end record, multi-disk, encrypted…).
    case notAZip
    /// An entry's bytes do not match its header: bad CRC, wrong size, corrupt deflate data,
    /// unsupported compression method.
    case corruptEntry
    /// An entry name that could escape a directory: `..`, `.`, a leading `/`, a backslash, an
    /// empty path component, a NUL.
    case unsafeEntryName
    /// An entry that is none of `config.json`, `entities/<namespace>.jsonl`, `files/<location-id>`
    /// (directory entries and symlinks included).
    case unknownEntry
    /// Two entries with the same name.
    case duplicateEntry
    /// Entries in the wrong order: an `entities/` entry after a `files/` entry.
    case entryOrder
    /// The archive has no `config.json`.
    case missingConfig
    /// `config.json` is there but is not the first entry.
    case configNotFirst
    /// `config.json` is not a JSON object with a `schema`, or its schema cannot be read.
    case malformedConfig
    /// A `.jsonl` line that is not a JSON object of the expected shape (truncated, unparsable,
    /// no `entity` object, a bad `createdAt`).
    case invalidLine
    /// A line whose `entity` has no string `id`.
    case missingEntityID
    /// A line whose `entity.id` is not a UUID.
    case invalidEntityID
    /// Two lines of one namespace with the same id.
    case duplicateEntityID
    /// A key in a line that no attribute of the namespace has (`Missing attr for <etype>.<key>`).
    case missingAttr
    /// A value of the wrong shape or type: a has-many link that is not an array, a link that is
    /// not a UUID, a string in a `number` attribute…
    case invalidValue
    /// Two entities with the same value for a unique attribute.
    case uniqueConflict
    /// A link to an id that no restored namespace of the backup has.
    case danglingLink
    /// A `$files` row without a `location-id`.
    case missingLocationID
    /// A `$files` row whose `files/<location-id>` entry is missing.
    case missingBlob
    /// A `files/` entry that no `$files` row names.
    case extraBlob
    /// A namespace whose line count differs from `config.json`'s `counts`.
    case countMismatch
    /// The writer was given data it cannot put in a backup (an unknown attr, two values for a
    /// has-one attribute, an id that is not a UUID…).
    case invalidInput
  }

  /// What kind of problem this is.
  public var kind: Kind
  /// The archive entry the problem is in, when there is one.
  public var entry: String?
  /// The 1-based line in ``entry``, for `.jsonl` entries.
  public var line: Int?
  /// What is wrong, in words.
  public var message: String

  /// Makes an error.
  public init(_ kind: Kind, entry: String? = nil, line: Int? = nil, _ message: String) {
    self.kind = kind
    self.entry = entry
    self.line = line
    self.message = message
  }

  /// `<entry>, line <n>: <message>`, leaving out what is unknown.
  public var description: String {
    switch (entry, line) {
    case let (entry?, line?): "\(entry), line \(line): \(message)"
    case let (entry?, nil): "\(entry): \(message)"
    default: message
    }
  }
}
