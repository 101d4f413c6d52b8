/// The id a client gives a request (`client-event-id`), echoed in the server's reply to it.
///
/// Every client sends a string (a UUID); the server echoes whatever came — also a number or
/// nothing — so the id keeps the JSON as sent, and a client reads it back as ``string``.
public struct ClientEventID: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The id as it is on the wire.
  public let json: JSON

  public init(_ id: String) { json = .string(id) }

  public init(stringLiteral id: String) { self.init(id) }

  /// The id a frame carried, kept as it came.
  public init(json: JSON) { self.json = json }

  /// No id: a reply to a frame that had none, or a message that answers no request.
  public static let none = ClientEventID(json: .null)

  /// The id a client made; nil when the frame had none or one that is not a string.
  public var string: String? { json.stringValue }

  public var description: String { string ?? json.serialized() }
}
