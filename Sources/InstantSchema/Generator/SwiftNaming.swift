/// Turns schema names into Swift names: singular type names from plural namespaces, camel-case
/// properties, escaped keywords.
public enum SwiftNaming {
  /// Words that must be written in backticks when used as identifiers.
  public static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
    "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
    "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
    "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
    "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "Type",
    "Protocol", "some", "any", "package", "consume", "borrowing", "consuming", "each", "macro",
  ]

  /// Type names that a generated type must not take, because it would shadow a type of Swift,
  /// Foundation, SwiftUI or SharingInstant in the user's module.
  public static let reservedTypeNames: Set<String> = [
    "Schema", "Any", "AnyObject", "Array", "Bool", "Character", "Dictionary", "Double", "Error", "Float", "Int",
    "Never", "Optional", "Result", "Set", "String", "Substring", "Task", "Type", "Self", "Protocol", "Void",
    "Sequence", "Collection", "Range", "Codable", "Decodable", "Encodable", "Equatable", "Hashable",
    "Identifiable", "Sendable", "Comparable", "Data", "Date", "DateInterval", "URL", "UUID", "Locale", "Calendar",
    "TimeZone", "Notification", "Decimal", "Measurement", "Unit", "Bundle", "Process", "Thread", "Timer",
    "Operation", "OperationQueue", "Progress", "Expression", "Predicate", "Stream", "Host", "Port", "Scanner",
    "Formatter", "Index", "Element", "Mirror", "Duration", "Clock", "Actor", "MainActor", "Group", "Text",
    "Image", "Color", "View", "Button", "List", "Label", "Link", "Section", "Form", "Menu", "Toggle", "Picker",
    "Shape", "Path", "Font", "Animation", "Transaction", "State", "Binding", "Environment", "Scene", "App",
    "Window", "Table", "Tab", "Grid", "Layout", "Edge", "Alignment", "Namespace", "Angle", "Gradient",
    "Material", "Canvas", "Spacer", "Divider", "Slider", "Stepper", "Gauge", "Observable", "Published",
    "JSON", "JSONObject", "EntityKey", "RoomKey", "TopicKey", "EntityIdentifiable", "InstantMutation",
    "InstantLink", "Cardinality", "IndirectLink", "InstantValueConvertible", "InstantDateCoding", "Shared",
    "SharedReader", "Foundation", "SharingInstant", "SwiftUI", "CodingKeys", "CodingKey", "Rooms", "Topics",
    "Links", "Swift",
  ]

  private static let irregularPlurals: [(plural: String, singular: String)] = [
    ("people", "person"), ("children", "child"), ("women", "woman"), ("men", "man"), ("mice", "mouse"),
    ("geese", "goose"), ("teeth", "tooth"), ("feet", "foot"), ("criteria", "criterion"),
    ("phenomena", "phenomenon"), ("leaves", "leaf"), ("knives", "knife"), ("wives", "wife"), ("lives", "life"),
    ("halves", "half"), ("shelves", "shelf"), ("wolves", "wolf"), ("movies", "movie"), ("cookies", "cookie"),
    ("series", "series"), ("species", "species"), ("news", "news"), ("indices", "index"), ("matrices", "matrix"),
    ("vertices", "vertex"), ("analyses", "analysis"), ("theses", "thesis"), ("crises", "crisis"),
    ("quizzes", "quiz"), ("heroes", "hero"), ("potatoes", "potato"), ("tomatoes", "tomato"), ("echoes", "echo"),
    ("aliases", "alias"), ("canvases", "canvas"),
  ]

  /// The singular of an English plural, as used for namespace names: `todos` → `todo`,
  /// `categories` → `category`, `boxes` → `box`, `people` → `person`. Words that do not look
  /// plural are returned unchanged.
  public static func singular(_ word: String) -> String {
    let lower = word.lowercased()
    for (plural, singular) in irregularPlurals where lower.hasSuffix(plural) {
      let stemLength = word.count - plural.count
      let start = word.index(word.startIndex, offsetBy: stemLength)
      let original = word[start...]
      let isWordStart =
        stemLength == 0 || !word[word.index(before: start)].isLetter || original.first?.isUppercase == true
      guard isWordStart else { continue }
      let replacement = original.first?.isUppercase == true ? singular.prefix(1).uppercased() + singular.dropFirst() : singular
      return String(word[..<start]) + replacement
    }
    func drop(_ count: Int, add suffix: String = "") -> String { String(word.dropLast(count)) + suffix }
    if lower.hasSuffix("ies"), lower.count > 4 { return drop(3, add: "y") }
    if lower.hasSuffix("sses") || lower.hasSuffix("xes") || lower.hasSuffix("ches") || lower.hasSuffix("shes")
      || lower.hasSuffix("zzes")
    {
      return drop(2)
    }
    if lower.hasSuffix("uses"), lower.count > 5 {
      let before = lower[lower.index(lower.endIndex, offsetBy: -5)]
      return "aeiou".contains(before) ? drop(1) : drop(2)
    }
    if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") {
      return word
    }
    if lower.hasSuffix("s"), lower.count > 2 { return drop(1) }
    return word
  }

  /// Splits a name into words at separators and lower-to-upper case changes are kept inside words.
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    for character in name {
      let isWordCharacter =
        if let ascii = character.asciiValue {
          (ascii >= 97 && ascii <= 122) || (ascii >= 65 && ascii <= 90) || (ascii >= 48 && ascii <= 57)
        } else {
          character.isLetter || character.isNumber
        }
      if isWordCharacter {
        current.append(character)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// `journal-entries` → `JournalEntries`, `user_profile` → `UserProfile`.
  public static func upperCamel(_ name: String) -> String {
    let result = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    guard let first = result.first else { return "Value" }
    return first.isNumber ? "_" + result : result
  }

  /// `content-type` → `contentType`, `created_at` → `createdAt`, `URLPath` → `urlPath`,
  /// `$user` → `user`, `disabled?` → `disabled`.
  public static func lowerCamel(_ name: String) -> String {
    if let ascii = asciiLowerCamel(name) { return ascii }
    let parts = words(name)
    guard let first = parts.first else { return "value" }
    var head = Array(first)
    var index = 0
    while index < head.count, head[index].isUppercase {
      let nextIsLower = index + 1 < head.count && head[index + 1].isLowercase
      if index > 0, nextIsLower { break }
      head[index] = Character(head[index].lowercased())
      index += 1
    }
    let result = String(head) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return result.first!.isNumber ? "_" + result : result
  }

  /// Names that cannot be properties or cases even in backticks.
  private static let unusableMemberNames: Set<String> = ["self", "Self", "super", "init", "deinit", "subscript", "Type", "Protocol", "_"]

  /// A property or case name for a schema name: ``lowerCamel(_:)``, with a `Value` suffix for
  /// names Swift cannot use as members (`self` → `selfValue`).
  public static func memberName(_ name: String) -> String {
    let candidate = lowerCamel(name)
    return unusableMemberNames.contains(candidate) ? candidate + "Value" : candidate
  }

  /// ``lowerCamel(_:)`` for ASCII names, without building intermediate strings; `nil` for
  /// other names.
  private static func asciiLowerCamel(_ name: String) -> String? {
    var words: [Range<Int>] = []
    let bytes = Array(name.utf8)
    var start: Int?
    for (index, byte) in bytes.enumerated() {
      guard byte < 0x80 else { return nil }
      let isWordByte = (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57)
      if isWordByte {
        if start == nil { start = index }
      } else if let wordStart = start {
        words.append(wordStart..<index)
        start = nil
      }
    }
    if let wordStart = start { words.append(wordStart..<bytes.count) }
    guard let first = words.first else { return "value" }
    func isUpper(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
    func isLower(_ byte: UInt8) -> Bool { byte >= 97 && byte <= 122 }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + 1)
    var index = first.lowerBound
    while index < first.upperBound, isUpper(bytes[index]) {
      let nextIsLower = index + 1 < first.upperBound && isLower(bytes[index + 1])
      if index > first.lowerBound, nextIsLower { break }
      result.append(bytes[index] + 32)
      index += 1
    }
    result.append(contentsOf: bytes[index..<first.upperBound])
    for word in words.dropFirst() {
      let head = bytes[word.lowerBound]
      result.append(isLower(head) ? head - 32 : head)
      result.append(contentsOf: bytes[(word.lowerBound + 1)..<word.upperBound])
    }
    if result[0] >= 48 && result[0] <= 57 { result.insert(UInt8(ascii: "_"), at: 0) }
    return String(decoding: result, as: UTF8.self)
  }

  /// The identifier as it must be written in source, with backticks for keywords.
  public static func escaped(_ identifier: String) -> String {
    keywords.contains(identifier) ? "`\(identifier)`" : identifier
  }

  /// The Swift type name for a namespace: `todos` → `Todo`, `$users` → `InstantUser`.
  public static func entityTypeName(for namespace: String) -> String {
    if namespace.hasPrefix("$") { return "Instant" + upperCamel(singular(String(namespace.dropFirst()))) }
    return upperCamel(singular(namespace))
  }

  /// The `Schema` property for a namespace: `todos` → `todos`, `$users` → `instantUsers`.
  public static func keyName(for namespace: String) -> String {
    if namespace.hasPrefix("$") { return "instant" + upperCamel(String(namespace.dropFirst())) }
    return lowerCamel(namespace)
  }

  /// A Swift string literal for `text`.
  static func stringLiteral(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
