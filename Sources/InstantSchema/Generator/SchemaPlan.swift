import InstantCore
/// Every Swift name the generated files use, decided once so that all files agree and no two
/// declarations collide.
struct SchemaPlan {
  struct LinkProperty {
    var name: String
    var label: String
    var targetTypeName: String
    var targetNamespace: String
    var has: Cardinality
    var isBoxed: Bool
    var linkKeyName: String
  }

  struct Entity {
    var definition: EntityDefinition
    var typeName: String
    var keyName: String
    var fields: [FieldPlan]
    var links: [LinkProperty]
    var nested: [NestedType]
  }

  struct Shape {
    var typeName: String
    var fields: [FieldPlan]
    var nested: [NestedType]
    var documentation: String?
  }

  struct Topic {
    var name: String
    var keyName: String
    var shape: Shape
  }

  struct Room {
    var definition: RoomDefinition
    var keyName: String
    var enumName: String
    var presence: Shape
    var topics: [Topic]
  }

  struct Link {
    var definition: LinkDefinition
    var keyName: String
  }

  var entities: [Entity] = []
  var rooms: [Room] = []
  var links: [Link] = []
  var warnings: [Diagnostic] = []

  init(schema: InstantSchemaDefinition) {
    var topLevel = NameScope(reserved: SwiftNaming.reservedTypeNames)
    var entityTypeNames: [String: String] = [:]
    for entity in schema.entities {
      var name = SwiftNaming.entityTypeName(for: entity.name)
      if SwiftNaming.reservedTypeNames.contains(name) {
        name += "Entity"
      } else if topLevel.contains(name), !topLevel.contains(SwiftNaming.upperCamel(entity.name)) {
        name = SwiftNaming.upperCamel(entity.name)
      }
      let claimed = topLevel.claim(name)
      if claimed != SwiftNaming.entityTypeName(for: entity.name) {
        warnings.append(.warning("`\(entity.name)` is generated as `\(claimed)` to avoid a name clash", schemaPath: "entities.\(entity.name)"))
      }
      entityTypeNames[entity.name] = claimed
    }
    var roomEnumNames = NameScope(reserved: SwiftNaming.reservedTypeNames)
    var roomShapeNames: [(room: RoomDefinition, presence: String, topics: [String])] = []
    for room in schema.rooms {
      let base = SwiftNaming.upperCamel(room.name)
      let presence = topLevel.claim(base + "Presence")
      let topics = room.topics.map { topLevel.claim(base + SwiftNaming.upperCamel($0.name) + "Topic") }
      roomShapeNames.append((room, presence, topics))
    }
    var mapper = SwiftTypeMapper(forbiddenNames: topLevel.taken)

    // Has-one edges that close a cycle must be boxed so the structs stay finite.
    var hasOne: [String: Set<String>] = [:]
    for link in schema.links {
      if link.forward.has == .one { hasOne[link.forward.namespace, default: []].insert(link.reverse.namespace) }
      if link.reverse.has == .one { hasOne[link.reverse.namespace, default: []].insert(link.forward.namespace) }
    }
    func reaches(_ start: String, _ goal: String) -> Bool {
      var seen: Set<String> = []
      var stack = [start]
      while let node = stack.popLast() {
        if node == goal { return true }
        guard seen.insert(node).inserted else { continue }
        stack.append(contentsOf: hasOne[node] ?? [])
      }
      return false
    }

    var schemaKeys = NameScope(reserved: ["Rooms", "Topics", "Links"])
    var linkKeys = NameScope(reserved: ["all"])
    for link in schema.links {
      links.append(Link(definition: link, keyName: linkKeys.claim(SwiftNaming.memberName(link.name))))
    }
    for entity in schema.entities {
      let typeName = entityTypeNames[entity.name]!
      var names = NameScope(reserved: ["id", "createMutation", "attributeValues", "mutationArguments"])
      var scope = mapper.makeScope(enclosingTypeName: typeName)
      let path = "entities.\(entity.name)"
      let fields = mapper.fields(for: entity.attributes, names: &names, scope: &scope, path: path)
      var properties: [LinkProperty] = []
      var wireNames = Set(entity.attributes.map(\.name) + ["id"])
      for link in links {
        let definition = link.definition
        for (side, other) in [(definition.forward, definition.reverse), (definition.reverse, definition.forward)]
        where side.namespace == entity.name {
          guard let targetTypeName = entityTypeNames[other.namespace] else { continue }
          guard wireNames.insert(side.label).inserted else {
            warnings.append(
              .warning(
                "`\(entity.name)` already has a property named `\(side.label)`, so the link `\(definition.name)` gets no property on \(typeName) (it stays in Schema.Links)",
                schemaPath: "links.\(definition.name)"))
            continue
          }
          let name = names.claim(SwiftNaming.memberName(side.label))
          properties.append(
            LinkProperty(
              name: name, label: side.label, targetTypeName: targetTypeName, targetNamespace: other.namespace,
              has: side.has, isBoxed: side.has == .one && reaches(other.namespace, entity.name), linkKeyName: link.keyName))
        }
      }
      entities.append(
        Entity(
          definition: entity, typeName: typeName, keyName: schemaKeys.claim(SwiftNaming.keyName(for: entity.name)),
          fields: fields, links: properties, nested: scope.declarations))
    }
    var roomKeys = NameScope()
    for (room, presenceName, topicNames) in roomShapeNames {
      let path = "rooms.\(room.name)"
      func shape(_ entity: EntityDefinition, typeName: String, path: String, documentation: String?) -> Shape {
        var names = NameScope()
        var scope = mapper.makeScope(enclosingTypeName: typeName)
        let fields = mapper.fields(for: entity.attributes, names: &names, scope: &scope, path: path)
        return Shape(typeName: typeName, fields: fields, nested: scope.declarations, documentation: documentation)
      }
      let presence = shape(room.presence, typeName: presenceName, path: "\(path).presence", documentation: room.documentation)
      var topicKeys = NameScope()
      let topics = zip(room.topics, topicNames).map { topic, typeName in
        Topic(
          name: topic.name, keyName: topicKeys.claim(SwiftNaming.memberName(topic.name)),
          shape: shape(topic, typeName: typeName, path: "\(path).topics.\(topic.name)", documentation: topic.documentation))
      }
      rooms.append(
        Room(
          definition: room, keyName: roomKeys.claim(SwiftNaming.memberName(room.name)),
          enumName: roomEnumNames.claim(SwiftNaming.upperCamel(room.name)), presence: presence, topics: topics))
    }
    warnings.append(contentsOf: mapper.warnings)
  }
}
