import Foundation

extension UUID {
  /// The UUID whose 16 bytes are `bytes`, in order (made ids: system attr ids, sign-in setting ids).
  init(bytes: [UInt8]) {
    precondition(bytes.count == 16, "a UUID has 16 bytes")
    let b = bytes
    self.init(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
  }
}
