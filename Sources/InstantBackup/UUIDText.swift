/// Entity ids in a backup are UUIDs (`entity_id` is a Postgres `uuid`).
enum UUIDText {
  /// Whether `s` is a UUID in its 8-4-4-4-12 hex form (either case).
  static func isValid(_ s: String) -> Bool {
    let bytes = Array(s.utf8)
    guard bytes.count == 36 else { return false }
    for (i, b) in bytes.enumerated() {
      if i == 8 || i == 13 || i == 18 || i == 23 {
        if b != UInt8(ascii: "-") { return false }
      } else if !isHex(b) {
        return false
      }
    }
    return true
  }

  private static func isHex(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46)
  }

  /// The canonical (lower-case) form of a valid UUID, as Postgres prints a `uuid`.
  static func canonical(_ s: String) -> String { s.lowercased() }
}
