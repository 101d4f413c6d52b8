import InstantCore
extension SwiftGenerator {
  func schemaFile(_ plan: SchemaPlan) -> String {
    var writer = CodeWriter()
    header(&writer, summary: "Schema.swift: a typed key for every namespace.", imports: ["SharingInstant"])
    writer.line()
    writer.line("/// The schema's namespaces as typed keys, for example `Schema.\(plan.entities.first?.keyName ?? "todos")`.")
    writer.block("public enum Schema") { writer in
      for (index, entity) in plan.entities.enumerated() {
        if index > 0 { writer.line() }
        writer.line("/// The `\(entity.definition.name)` namespace, decoded as ``\(entity.typeName)``.")
        writer.line(
          "public static let \(SwiftNaming.escaped(entity.keyName)) = EntityKey<\(entity.typeName)>(namespace: \(SwiftNaming.stringLiteral(entity.definition.name)))")
      }
    }
    return writer.text
  }

  func roomsFile(_ plan: SchemaPlan) -> String {
    var writer = CodeWriter()
    header(&writer, summary: "Rooms.swift: presence and topic types for every room, and their keys.", imports: ["Foundation", "SharingInstant"])
    for room in plan.rooms {
      writer.line()
      var presence = room.presence
      presence.documentation = presence.documentation ?? "What each peer publishes in a `\(room.definition.name)` room."
      writeShape(presence, into: &writer)
      for topic in room.topics {
        writer.line()
        var shape = topic.shape
        shape.documentation = shape.documentation ?? "An event of the `\(topic.name)` topic in `\(room.definition.name)` rooms."
        writeShape(shape, into: &writer)
      }
    }
    writer.line()
    writer.block("extension Schema") { writer in
      writer.line("/// The schema's room types as typed keys.")
      writer.block("public enum Rooms") { writer in
        for room in plan.rooms {
          writer.line("/// `\(room.definition.name)` rooms, whose peers publish ``\(room.presence.typeName)``.")
          writer.line(
            "public static let \(SwiftNaming.escaped(room.keyName)) = RoomKey<\(room.presence.typeName)>(type: \(SwiftNaming.stringLiteral(room.definition.name)))")
        }
      }
      writer.line()
      writer.line("/// The topics of each room type as typed keys, for example `Schema.Topics.Chat.emoji`.")
      writer.block("public enum Topics") { writer in
        for room in plan.rooms where !room.topics.isEmpty {
          writer.line("/// The topics of `\(room.definition.name)` rooms.")
          writer.block("public enum \(room.enumName)") { writer in
            for topic in room.topics {
              writer.line("/// `\(topic.name)` events, carrying ``\(topic.shape.typeName)``.")
              writer.line(
                "public static let \(SwiftNaming.escaped(topic.keyName)) = TopicKey<\(topic.shape.typeName)>(roomType: \(SwiftNaming.stringLiteral(room.definition.name)), topic: \(SwiftNaming.stringLiteral(topic.name)))")
            }
          }
        }
      }
    }
    return writer.text
  }

  func linksFile(_ plan: SchemaPlan) -> String {
    var writer = CodeWriter()
    header(&writer, summary: "Links.swift: both sides of every link, and each entity's links by label.", imports: ["SharingInstant"])
    writer.line()
    writer.block("extension Schema") { writer in
      writer.line("/// The schema's links.")
      writer.block("public enum Links") { writer in
        for link in plan.links {
          let definition = link.definition
          writer.documentation(definition.documentation)
          if definition.documentation != nil { writer.line("///") }
          writer.line(
            "/// `\(definition.forward.namespace).\(definition.forward.label)` (has \(definition.forward.has.rawValue)) ↔ `\(definition.reverse.namespace).\(definition.reverse.label)` (has \(definition.reverse.has.rawValue))")
          writer.line("public static let \(SwiftNaming.escaped(link.keyName)) = InstantLink(")
          writer.line("  name: \(SwiftNaming.stringLiteral(definition.name)),")
          writer.line("  forward: \(side(definition.forward)),")
          writer.line("  reverse: \(side(definition.reverse))\(definition.forward.isRequired ? "," : "")")
          if definition.forward.isRequired { writer.line("  isRequired: true") }
          writer.line(")")
          writer.line()
        }
        writer.line("/// Every link, in schema order.")
        writer.line("public static let all: [InstantLink] = [\(plan.links.map { SwiftNaming.escaped($0.keyName) }.joined(separator: ", "))]")
      }
    }
    for entity in plan.entities {
      writer.line()
      writer.block("extension \(entity.typeName)") { writer in
        writer.line("/// The links of `\(entity.definition.name)`, by the label they have on it.")
        if entity.links.isEmpty {
          writer.line("public static let links: [String: InstantLink] = [:]")
        } else {
          writer.line("public static let links: [String: InstantLink] = [")
          for link in entity.links {
            writer.line("  \(SwiftNaming.stringLiteral(link.label)): Schema.Links.\(SwiftNaming.escaped(link.linkKeyName)),")
          }
          writer.line("]")
        }
      }
    }
    return writer.text
  }

  private func side(_ side: LinkDefinition.Side) -> String {
    ".init(namespace: \(SwiftNaming.stringLiteral(side.namespace)), label: \(SwiftNaming.stringLiteral(side.label)), has: .\(side.has.rawValue)\(side.cascadesOnDelete ? ", cascadesOnDelete: true" : ""))"
  }

  func mutationsFile(_ plan: SchemaPlan) -> String {
    var writer = CodeWriter()
    header(&writer, summary: "Mutations.swift: typed create, update, delete, link and unlink operations.", imports: ["Foundation", "SharingInstant"])
    for entity in plan.entities {
      writer.line()
      writer.block("extension \(entity.typeName)") { writer in
        writeCreate(entity, into: &writer)
        writer.line()
        writeUpdate(entity, into: &writer)
        writer.line()
        writer.line("/// Deletes the `\(entity.definition.name)` entity `id` and removes its links.")
        writer.block("public static func delete(_ id: String) -> InstantMutation") { writer in
          writer.line("InstantMutation(.delete, namespace: Self.namespace, id: id)")
        }
        for link in entity.links {
          for action in ["link", "unlink"] {
            writer.line()
            let many = link.has == .many
            writer.line(
              "/// \(action == "link" ? "Links" : "Unlinks") `\(link.label)` of the `\(entity.definition.name)` entity `id` \(action == "link" ? "to" : "from") \(many ? "the" : "the") `\(link.targetNamespace)` entit\(many ? "ies" : "y") given by id.")
            let parameter = many ? "[String]" : "String"
            writer.block("public static func \(action)(_ id: String, \(SwiftNaming.escaped(link.name)): \(parameter)) -> InstantMutation") { writer in
              let value = many ? ".array(\(SwiftNaming.escaped(link.name)).map(JSON.string))" : ".string(\(SwiftNaming.escaped(link.name)))"
              writer.line("InstantMutation(.\(action), namespace: Self.namespace, id: id, arguments: [\(SwiftNaming.stringLiteral(link.label)): \(value)])")
            }
          }
        }
        writer.line()
        writer.line("/// The operation that creates this value's attributes under its id (links are not included).")
        writer.block("public var createMutation: InstantMutation") { writer in
          writer.line("InstantMutation(.create, namespace: Self.namespace, id: id, arguments: attributeValues)")
        }
        writer.line()
        writer.line("/// This value's attributes as InstantDB JSON, keyed by their schema names; `nil` optionals are left out.")
        writer.block("public var attributeValues: JSONObject") { writer in
          writeArguments(entity.fields, optionalBinding: "if let", prefix: "self.", into: &writer)
          writer.line("return mutationArguments")
        }
      }
    }
    return writer.text
  }

  private func writeArguments(_ fields: [FieldPlan], optionalBinding: String, prefix: String = "", into writer: inout CodeWriter) {
    writer.line("\(fields.isEmpty ? "let" : "var") mutationArguments: JSONObject = [:]")
    for field in fields {
      let key = SwiftNaming.stringLiteral(field.wireName)
      if field.isOptional {
        writer.line("\(optionalBinding) \(field.escapedName) = \(prefix)\(field.escapedName) { mutationArguments[\(key)] = \(field.escapedName).instantValue }")
      } else {
        writer.line("mutationArguments[\(key)] = \(prefix)\(field.escapedName).instantValue")
      }
    }
  }

  private func writeCreate(_ entity: SchemaPlan.Entity, into writer: inout CodeWriter) {
    writer.line("/// Creates a `\(entity.definition.name)` entity with its attributes; optional ones left `nil` are not written.")
    var parameters = ["id: String = UUID().uuidString.lowercased()"]
    parameters += entity.fields.map { "\($0.escapedName): \($0.declaredType)\($0.isOptional ? " = nil" : "")" }
    writeFunction("create", parameters: parameters, into: &writer) { writer in
      writeArguments(entity.fields, optionalBinding: "if let", into: &writer)
      writer.line("return InstantMutation(.create, namespace: Self.namespace, id: id, arguments: mutationArguments)")
    }
  }

  private func writeUpdate(_ entity: SchemaPlan.Entity, into writer: inout CodeWriter) {
    writer.line("/// Updates the given attributes of the `\(entity.definition.name)` entity `id`; attributes left `nil` are not touched.")
    if entity.fields.contains(where: \.isOptional) {
      writer.line("/// For an optional attribute, pass `.some(nil)` to clear it.")
    }
    var parameters = ["_ id: String"]
    parameters += entity.fields.map { "\($0.escapedName): \($0.type.code)\($0.isOptional ? "??" : "?") = nil" }
    writeFunction("update", parameters: parameters, into: &writer) { writer in
      writer.line("\(entity.fields.isEmpty ? "let" : "var") mutationArguments: JSONObject = [:]")
      for field in entity.fields {
        writer.line("if let \(field.escapedName) { mutationArguments[\(SwiftNaming.stringLiteral(field.wireName))] = \(field.escapedName).instantValue }")
      }
      writer.line("return InstantMutation(.update, namespace: Self.namespace, id: id, arguments: mutationArguments)")
    }
  }

  private func writeFunction(_ name: String, parameters: [String], into writer: inout CodeWriter, body: (inout CodeWriter) -> Void) {
    writer.line("public static func \(name)(")
    for (index, parameter) in parameters.enumerated() {
      writer.line("  \(parameter)\(index == parameters.count - 1 ? "" : ",")")
    }
    writer.block(") -> InstantMutation", body)
  }
}
