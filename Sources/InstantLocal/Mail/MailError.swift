/// Why an email was not sent. Never carries a password, a code or the message.
public struct MailError: Error, Sendable, CustomStringConvertible {
  public enum Kind: String, Sendable {
    /// The server could not be reached.
    case connect
    /// TLS could not be set up (the server offers no `STARTTLS`, or its certificate is not trusted).
    case tls
    /// The server refused the credentials, or credentials would have gone over a plain connection.
    case authentication
    /// The server refused the sender or the recipient.
    case refused
    /// The server answered something the conversation does not allow, or closed it.
    case protocolError = "protocol"
    /// The server did not answer in time.
    case timeout
    /// The address is not one address (spaces, brackets, line breaks).
    case invalidAddress = "invalid-address"
  }

  public var kind: Kind
  public var message: String

  init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { "mail not sent (\(kind.rawValue)): \(message)" }
}
