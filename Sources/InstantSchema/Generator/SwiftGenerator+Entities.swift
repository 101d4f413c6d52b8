import InstantCore
extension SwiftGenerator {
  func entitiesFile(_ plan: SchemaPlan) -> String {
    var writer = CodeWriter()
    header(&writer, summary: "Entities.swift: one struct per namespace of the schema.", imports: ["Foundation", "SharingInstant"])
    for entity in plan.entities {
      writer.line()
      writeEntity(entity, into: &writer)
    }
    return writer.text
  }

  private func writeEntity(_ entity: SchemaPlan.Entity, into writer: inout CodeWriter) {
    writer.documentation(entity.definition.documentation ?? "An entity of the `\(entity.definition.name)` namespace.")
    writer.block("public struct \(entity.typeName): EntityIdentifiable, Codable, Sendable, Equatable, Identifiable") { writer in
      writer.line("/// The InstantDB namespace of this entity.")
      writer.line("public static let namespace = \(SwiftNaming.stringLiteral(entity.definition.name))")
      writer.line()
      writer.line("/// The entity's id, a lower-case UUID string.")
      writer.line("public var id: String")
      writeStoredFields(entity.fields, into: &writer)
      for link in entity.links {
        writer.documentation(
          "Link `\(link.label)`: \(link.has == .one ? "the" : "the many") `\(link.targetNamespace)` entit\(link.has == .one ? "y" : "ies") it refers to; `nil` unless the query includes the link.")
        switch (link.has, link.isBoxed) {
        case (.many, _):
          writer.line("public var \(SwiftNaming.escaped(link.name)): [\(link.targetTypeName)]?")
        case (.one, false):
          writer.line("public var \(SwiftNaming.escaped(link.name)): \(link.targetTypeName)?")
        case (.one, true):
          writer.block("public var \(SwiftNaming.escaped(link.name)): \(link.targetTypeName)?") { writer in
            writer.line("get { _\(link.name)?.value }")
            writer.line("set { _\(link.name) = newValue.map(IndirectLink.init) }")
          }
          writer.line("private var _\(link.name): IndirectLink<\(link.targetTypeName)>?")
        }
      }
      writer.line()
      var parameters = ["id: String = UUID().uuidString.lowercased()"]
      parameters += entity.fields.map { "\($0.escapedName): \($0.declaredType)\($0.isOptional ? " = nil" : "")" }
      parameters += entity.links.map {
        "\(SwiftNaming.escaped($0.name)): \($0.has == .many ? "[\($0.targetTypeName)]" : $0.targetTypeName)? = nil"
      }
      writer.line("/// Creates a value; links stay `nil` unless given.")
      writeInitializer(parameters: parameters, into: &writer) { writer in
        writer.line("self.id = id")
        for field in entity.fields { writer.line("self.\(field.escapedName) = \(field.escapedName)") }
        for link in entity.links {
          if link.isBoxed {
            writer.line("self._\(link.name) = \(SwiftNaming.escaped(link.name)).map(IndirectLink.init)")
          } else {
            writer.line("self.\(SwiftNaming.escaped(link.name)) = \(SwiftNaming.escaped(link.name))")
          }
        }
      }
      let keys = [("id", "id")] + entity.fields.map { ($0.name, $0.wireName) } + entity.links.map { ($0.name, $0.label) }
      writer.line()
      writeCodingKeys(keys, into: &writer)
      writer.line()
      writer.block("public init(from decoder: any Decoder) throws") { writer in
        writer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
        writer.line("self.id = try container.decode(String.self, forKey: .id)")
        for field in entity.fields { writer.line(decodeLine(field)) }
        for link in entity.links {
          let key = ".\(SwiftNaming.escaped(link.name))"
          switch (link.has, link.isBoxed) {
          case (.many, _):
            writer.line("self.\(SwiftNaming.escaped(link.name)) = try container.decodeIfPresent([\(link.targetTypeName)].self, forKey: \(key))")
          case (.one, false):
            writer.line("self.\(SwiftNaming.escaped(link.name)) = try container.decodeInstantLinkIfPresent(\(link.targetTypeName).self, forKey: \(key))")
          case (.one, true):
            writer.line("self._\(link.name) = try container.decodeInstantLinkIfPresent(\(link.targetTypeName).self, forKey: \(key)).map(IndirectLink.init)")
          }
        }
      }
      writer.line()
      writer.block("public func encode(to encoder: any Encoder) throws") { writer in
        writer.line("var container = encoder.container(keyedBy: CodingKeys.self)")
        writer.line("try container.encode(id, forKey: .id)")
        for field in entity.fields { writer.line(encodeLine(field)) }
        for link in entity.links {
          writer.line("try container.encodeIfPresent(\(SwiftNaming.escaped(link.name)), forKey: .\(SwiftNaming.escaped(link.name)))")
        }
      }
      writeAttributeNames(entity, into: &writer)
      writeNestedTypes(entity.nested, into: &writer)
    }
  }

  /// `instantAttributeName(for:)` for the properties a query key path cannot name by itself: those
  /// whose schema name differs from the Swift one, and boxed links (computed properties).
  private func writeAttributeNames(_ entity: SchemaPlan.Entity, into writer: inout CodeWriter) {
    let renamed =
      entity.fields.filter { $0.name != $0.wireName }.map { ($0.escapedName, $0.wireName) }
      + entity.links.filter { $0.isBoxed || $0.name != $0.label }.map { (SwiftNaming.escaped($0.name), $0.label) }
    guard !renamed.isEmpty else { return }
    writer.line()
    writer.line("/// The schema's name for a property whose Swift name differs, so query key paths reach the right attribute.")
    writer.block("public static func instantAttributeName(for keyPath: PartialKeyPath<Self>) -> String?") { writer in
      for (name, wireName) in renamed {
        writer.line("if keyPath == \\\(entity.typeName).\(name) { return \(SwiftNaming.stringLiteral(wireName)) }")
      }
      writer.line("return nil")
    }
  }

  func writeStoredFields(_ fields: [FieldPlan], into writer: inout CodeWriter) {
    for field in fields {
      writer.documentation(field.documentation)
      writer.line("public var \(field.escapedName): \(field.declaredType)")
    }
  }

  func writeInitializer(parameters: [String], into writer: inout CodeWriter, body: (inout CodeWriter) -> Void) {
    if parameters.isEmpty {
      writer.line("public init() {}")
      return
    }
    writer.line("public init(")
    for (index, parameter) in parameters.enumerated() {
      writer.line("  \(parameter)\(index == parameters.count - 1 ? "" : ",")")
    }
    writer.block(")", body)
  }

  func writeCodingKeys(_ keys: [(name: String, wireName: String)], into writer: inout CodeWriter) {
    writer.block("private enum CodingKeys: String, CodingKey") { writer in
      for key in keys {
        if key.name == key.wireName {
          writer.line("case \(SwiftNaming.escaped(key.name))")
        } else {
          writer.line("case \(SwiftNaming.escaped(key.name)) = \(SwiftNaming.stringLiteral(key.wireName))")
        }
      }
    }
  }

  func decodeLine(_ field: FieldPlan) -> String {
    let key = ".\(field.escapedName)"
    if field.isDate {
      return "self.\(field.escapedName) = try container.decodeInstantDate\(field.isOptional ? "IfPresent" : "")(forKey: \(key))"
    }
    if field.type == .json && !field.isOptional {
      return "self.\(field.escapedName) = try container.decodeInstantJSON(forKey: \(key))"
    }
    return "self.\(field.escapedName) = try container.decode\(field.isOptional ? "IfPresent" : "")(\(field.type.code).self, forKey: \(key))"
  }

  func encodeLine(_ field: FieldPlan) -> String {
    let key = ".\(field.escapedName)"
    if field.isDate {
      return "try container.encodeInstantDate\(field.isOptional ? "IfPresent" : "")(\(field.escapedName), forKey: \(key))"
    }
    return "try container.encode\(field.isOptional ? "IfPresent" : "")(\(field.escapedName), forKey: \(key))"
  }

  /// A presence or topic struct: the fields, an initializer and date-aware coding.
  func writeShape(_ shape: SchemaPlan.Shape, into writer: inout CodeWriter) {
    writer.documentation(shape.documentation)
    writer.block("public struct \(shape.typeName): Codable, Sendable, Equatable") { writer in
      writeStoredFields(shape.fields, into: &writer)
      if !shape.fields.isEmpty { writer.line() }
      writeInitializer(parameters: shape.fields.map { "\($0.escapedName): \($0.declaredType)\($0.isOptional ? " = nil" : "")" }, into: &writer) { writer in
        for field in shape.fields { writer.line("self.\(field.escapedName) = \(field.escapedName)") }
      }
      if !shape.fields.isEmpty {
        writer.line()
        writeCodingKeys(shape.fields.map { ($0.name, $0.wireName) }, into: &writer)
        writer.line()
        writer.block("public init(from decoder: any Decoder) throws") { writer in
          writer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
          for field in shape.fields { writer.line(decodeLine(field)) }
        }
        writer.line()
        writer.block("public func encode(to encoder: any Encoder) throws") { writer in
          writer.line("var container = encoder.container(keyedBy: CodingKeys.self)")
          for field in shape.fields { writer.line(encodeLine(field)) }
        }
      }
      writeNestedTypes(shape.nested, into: &writer)
    }
  }

  func writeNestedTypes(_ types: [NestedType], into writer: inout CodeWriter) {
    for type in types {
      writer.line()
      switch type {
      case .enumeration(let name, let cases, let documentation):
        writeEnum(name: name, cases: cases, documentation: documentation, into: &writer)
      case .structure(let name, let fields, let nested, let documentation):
        writer.documentation(documentation)
        writer.block("public struct \(name): Codable, Sendable, Equatable, InstantValueConvertible") { writer in
          writeStoredFields(fields, into: &writer)
          writer.line()
          writeInitializer(parameters: fields.map { "\($0.escapedName): \($0.declaredType)\($0.isOptional ? " = nil" : "")" }, into: &writer) { writer in
            for field in fields { writer.line("self.\(field.escapedName) = \(field.escapedName)") }
          }
          if fields.contains(where: { $0.name != $0.wireName }) {
            writer.line()
            writeCodingKeys(fields.map { ($0.name, $0.wireName) }, into: &writer)
          }
          writer.line()
          writer.line("/// The JSON written to InstantDB.")
          writer.block("public var instantValue: JSON") { writer in
            writer.line("var object: JSONObject = [:]")
            for field in fields {
              if field.isOptional {
                writer.line("if let \(field.escapedName) { object[\(SwiftNaming.stringLiteral(field.wireName))] = \(field.escapedName).instantValue }")
              } else {
                writer.line("object[\(SwiftNaming.stringLiteral(field.wireName))] = \(field.escapedName).instantValue")
              }
            }
            writer.line("return .object(object)")
          }
          writeNestedTypes(nested, into: &writer)
        }
      }
    }
  }

  private func writeEnum(name: String, cases: [EnumCase], documentation: String?, into writer: inout CodeWriter) {
    writer.documentation(documentation ?? "The values the schema declares; `unknown` keeps any other string the server returns.")
    writer.block("public enum \(name): RawRepresentable, Codable, Sendable, Hashable, CaseIterable, InstantValueConvertible") { writer in
      for enumCase in cases { writer.line("case \(SwiftNaming.escaped(enumCase.name))") }
      writer.line("/// A value the schema did not declare when this file was generated.")
      writer.line("case unknown(String)")
      writer.line()
      writer.line("/// The declared values, in schema order.")
      writer.line("public static let allCases: [\(name)] = [\(cases.map { ".\(SwiftNaming.escaped($0.name))" }.joined(separator: ", "))]")
      writer.line()
      writer.block("public init(rawValue: String)") { writer in
        writer.block("switch rawValue") { writer in
          for enumCase in cases {
            writer.line("case \(SwiftNaming.stringLiteral(enumCase.rawValue)): self = .\(SwiftNaming.escaped(enumCase.name))")
          }
          writer.line("default: self = .unknown(rawValue)")
        }
      }
      writer.line()
      writer.block("public var rawValue: String") { writer in
        writer.block("switch self") { writer in
          for enumCase in cases {
            writer.line("case .\(SwiftNaming.escaped(enumCase.name)): \(SwiftNaming.stringLiteral(enumCase.rawValue))")
          }
          writer.line("case .unknown(let value): value")
        }
      }
      writer.line()
      writer.block("public init(from decoder: any Decoder) throws") { writer in
        writer.line("self.init(rawValue: try decoder.singleValueContainer().decode(String.self))")
      }
      writer.line()
      writer.block("public func encode(to encoder: any Encoder) throws") { writer in
        writer.line("var container = encoder.singleValueContainer()")
        writer.line("try container.encode(rawValue)")
      }
      writer.line()
      writer.line("/// The JSON written to InstantDB.")
      writer.line("public var instantValue: JSON { .string(rawValue) }")
    }
  }
}
