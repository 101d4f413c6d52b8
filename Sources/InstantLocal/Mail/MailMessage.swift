import Foundation

/// One email: a subject and a text body, with an HTML alternative when there is one, rendered as
/// an RFC 5322 message (MIME, UTF-8, base64 bodies, RFC 2047 headers).
struct MailMessage: Sendable, Equatable {
  var from: MailAddress
  var to: MailAddress
  var replyTo: MailAddress?
  var subject: String
  var text: String
  var html: String?

  /// The message as sent after `DATA`: CRLF line ends, lines starting with a dot doubled, without
  /// the final `.` line.
  func rendered(date: Date, messageID: String = UUID().uuidString.lowercased(), domain: String) -> String {
    var headers = [
      "Date: \(Self.rfc5322Date(date))",
      "From: \(from)",
      "To: \(to)",
      "Subject: \(Self.headerText(subject, phrase: false))",
      "Message-ID: <\(messageID)@\(domain)>",
      "MIME-Version: 1.0",
    ]
    if let replyTo { headers.append("Reply-To: \(replyTo)") }
    var body: [String]
    if let html {
      let boundary = "=_instant_\(messageID)"
      headers.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
      body = ["--\(boundary)"] + Self.part(text, type: "text/plain")
      body += ["--\(boundary)"] + Self.part(html, type: "text/html")
      body.append("--\(boundary)--")
    } else {
      headers += ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64"]
      body = Self.base64Lines(text)
    }
    return (headers + [""] + body).map { $0.hasPrefix(".") ? "." + $0 : $0 }.joined(separator: "\r\n")
  }

  private static func part(_ content: String, type: String) -> [String] {
    ["Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", ""] + base64Lines(content)
  }

  /// `text` as UTF-8 in base64, 76 characters a line.
  private static func base64Lines(_ text: String) -> [String] {
    let encoded = Data(text.utf8).base64EncodedString()
    return stride(from: 0, to: encoded.count, by: 76).map { start in
      let from = encoded.index(encoded.startIndex, offsetBy: start)
      return String(encoded[from..<(encoded.index(from, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex)])
    }
  }

  /// A header's text: as it is when it is printable ASCII (a display name with specials quoted),
  /// else an RFC 2047 encoded word. Line breaks never survive (no header injection).
  static func headerText(_ text: String, phrase: Bool) -> String {
    let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    let printable = flat.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 }
    guard printable else { return "=?utf-8?B?\(Data(flat.utf8).base64EncodedString())?=" }
    let specials = CharacterSet(charactersIn: "()<>[]:;@\\,.\"")
    guard phrase, flat.unicodeScalars.contains(where: specials.contains) else { return flat }
    return "\"" + flat.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// `Sun, 29 Nov 2026 05:40:00 +0000`.
  static func rfc5322Date(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
    return formatter.string(from: date)
  }
}
