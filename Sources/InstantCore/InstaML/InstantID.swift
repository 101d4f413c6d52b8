/// Lower-case random (version 4) UUIDs, the only spelling InstantDB's server echoes back.
public enum InstantID {
  public static func make() -> String {
    var rng = SystemRandomNumberGenerator()
    return make(using: &rng)
  }

  public static func make(using rng: inout some RandomNumberGenerator) -> String {
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(36)
    for (i, b) in bytes.enumerated() {
      if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
      out.append(hex[Int(b >> 4)])
      out.append(hex[Int(b & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
