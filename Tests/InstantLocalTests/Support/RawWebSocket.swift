import InstantCore
import NIOCore

/// WebSocket framing by hand over a ``RawConnection``, for clients no library would write: one
/// that never answers a ping, one that stops reading.
extension RawConnection.Session {
  /// Upgrades the connection to a WebSocket at `/runtime/session`; false if the server refused.
  mutating func upgrade(port: Int) async -> Bool {
    guard await send(RawConnection.webSocketUpgrade(appID: TestSession.appID, port: port)),
      let response = await readResponse()
    else { return false }
    return response.status == 101
  }

  /// Sends `message` as one masked text frame, as a client must.
  mutating func sendFrame(_ message: JSON) async -> Bool {
    let payload = Array(message.serialized().utf8)
    let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    var frame: [UInt8] = [0x81]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
    }
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    do {
      try await outbound.write(ByteBuffer(bytes: frame))
      return true
    } catch {
      return false
    }
  }

  /// The next frame from the server (`opcode` 0x1 text, 0x8 close, 0x9 ping …), or nil once the
  /// connection has ended.
  mutating func readFrame() async -> (opcode: UInt8, payload: [UInt8])? {
    while true {
      let bytes = Array(buffer.readableBytesView)
      if bytes.count >= 2 {
        var length = Int(bytes[1] & 0x7F)
        var start = 2
        if length == 126, bytes.count >= 4 {
          length = Int(bytes[2]) << 8 | Int(bytes[3])
          start = 4
        } else if length == 127, bytes.count >= 10 {
          length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
          start = 10
        }
        if length < 126 || start > 2, bytes.count >= start + length {
          buffer.moveReaderIndex(forwardBy: start + length)
          return (bytes[0] & 0x0F, Array(bytes[start..<start + length]))
        }
      }
      guard var chunk = try? await iterator.next() else { return nil }
      buffer.writeBuffer(&chunk)
    }
  }
}
