/// Why the server could not start or keep its data.
public enum InstantLocalError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The SQLite database could not be opened, read or written; the message says what and how to fix it.
  case storage(String)
  /// The server could not bind or serve; the message names the address.
  case server(String)

  public var description: String {
    switch self {
    case let .storage(message): "storage: \(message)"
    case let .server(message): "server: \(message)"
    }
  }
}
