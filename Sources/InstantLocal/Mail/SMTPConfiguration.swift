import Foundation

/// Where instant-local sends its email (magic codes): an SMTP submission server.
///
/// ```swift
/// var configuration = InstantLocalConfiguration()
/// configuration.mail = SMTPConfiguration(
///   host: "smtp.example.com", port: 587, security: .startTLS,
///   credentials: .init(username: "apikey", password: secret),
///   from: MailAddress(email: "login@example.com", name: "Example"))
/// ```
///
/// Without one, magic codes are written to the server's log (development); with one, a code is
/// never logged.
public struct SMTPConfiguration: Sendable, Equatable {
  /// How the connection is protected.
  public enum Security: String, Sendable, Equatable, CaseIterable {
    /// Plain connection upgraded with `STARTTLS` before anything else is sent (submission, port
    /// 587). A server that does not offer `STARTTLS` is refused.
    case startTLS = "starttls"
    /// TLS from the first byte (SMTPS, port 465).
    case tls
    /// No TLS at all: only for a mail catcher on this machine. Credentials are never sent over it.
    case none
  }

  /// A user name and password for `AUTH` (PLAIN, or LOGIN when that is all the server offers).
  public struct Credentials: Sendable, Equatable {
    public var username: String
    public var password: String
    public init(username: String, password: String) {
      self.username = username
      self.password = password
    }
  }

  public var host: String
  public var port: Int
  public var security: Security
  public var credentials: Credentials?
  /// The sender of apps that have none of their own.
  public var from: MailAddress
  /// A PEM file of certificates to trust instead of the system's (a private CA, or a test's).
  public var trustedCertificatesFile: String?
  /// The name this server gives in `EHLO`.
  public var heloName: String
  /// How long one exchange with the server (connecting, a command's reply) may take.
  public var timeout: Duration

  public init(
    host: String, port: Int = 587, security: Security = .startTLS, credentials: Credentials? = nil,
    from: MailAddress, trustedCertificatesFile: String? = nil, heloName: String = "instant-local",
    timeout: Duration = .seconds(30)
  ) {
    self.host = host
    self.port = port
    self.security = security
    self.credentials = credentials
    self.from = from
    self.trustedCertificatesFile = trustedCertificatesFile
    self.heloName = heloName
    self.timeout = timeout
  }
}

/// An email address with an optional display name.
public struct MailAddress: Sendable, Equatable, CustomStringConvertible {
  public var email: String
  public var name: String?

  public init(email: String, name: String? = nil) {
    self.email = email
    self.name = name
  }

  /// `Name <email>`, the name encoded when it is not plain ASCII.
  public var description: String {
    guard let name, !name.isEmpty else { return "<\(email)>" }
    return "\(MailMessage.headerText(name, phrase: true)) <\(email)>"
  }

  /// Whether `email` is one address a server can be given: `local@domain`, no spaces, no angle
  /// brackets, no line breaks (which would inject commands or headers).
  public var isValid: Bool {
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.count <= 254 else { return false }
    return !email.unicodeScalars.contains { $0.value <= 32 || $0 == "<" || $0 == ">" || $0.value == 127 || $0 == "," }
  }
}
