import InstantCore
/// Turns the evaluated `i.schema(…)` / `i.graph(…)` call into an ``InstantSchemaDefinition``,
/// checking InstantDB's rules with schema paths in every message.
struct SchemaReader {
  let interpreter: Interpreter

  private func fail(_ kind: Diagnostic.Kind, _ message: String, at origin: Origin, path: String) -> Diagnostic {
    .error(kind, message, at: interpreter.location(origin), schemaPath: path.isEmpty ? nil : path)
  }

  private func evaluate(_ entry: ObjectEntry, path: String) throws(Diagnostic) -> Value {
    do {
      return try interpreter.evaluate(entry)
    } catch var error {
      if error.schemaPath == nil { error.schemaPath = path }
      throw error
    }
  }

  private func object(_ value: Value, path: String, expected: String) throws(Diagnostic) -> [ObjectEntry] {
    guard case .object(let entries, _) = value else {
      throw fail(.invalid, "expected \(expected), found \(value.kindDescription)", at: value.origin, path: path)
    }
    return entries
  }

  // MARK: Locating

  /// Finds the schema value in the entry module.
  func locateSchema(in module: Int) throws(Diagnostic) -> Value {
    let syntax = interpreter.modules[module].syntax
    var defaultError: Diagnostic?
    if syntax.defaultExport != nil || syntax.exports["default"] != nil {
      do throws(Diagnostic) {
        let origin = Origin(module: module, offset: syntax.defaultExport?.offset ?? 0)
        guard let value = try interpreter.exportedValue("default", of: module, at: origin) else {
          throw fail(.schemaNotFound, "the default export cannot be found", at: origin, path: "")
        }
        if isSchemaCall(value) { return value }
        defaultError = fail(
          .schemaNotFound,
          "the default export is \(value.kindDescription), not an `i.schema({ entities, links, rooms })` call",
          at: value.origin, path: "")
      } catch {
        defaultError = error
      }
    }
    var found: [Value] = []
    for name in syntax.constantOrder {
      guard let expression = syntax.constants[name], Self.looksLikeSchemaCall(expression) else { continue }
      if let value = try? interpreter.evaluate(expression, in: module), isSchemaCall(value) { found.append(value) }
    }
    if found.count == 1 { return found[0] }
    if let defaultError { throw defaultError }
    if found.count > 1 {
      throw .error(.schemaNotFound, "found \(found.count) `i.schema(…)` constants and no `export default`; export the one to generate from with `export default`", at: interpreter.location(found[1].origin))
    }
    throw .error(
      .schemaNotFound,
      "no `i.schema({ entities, … })` found; expected `const _schema = i.schema({ entities: { … } })` with `export default schema`",
      at: SourceLocation(file: interpreter.modules[module].path, line: 1, column: 1))
  }

  private static func looksLikeSchemaCall(_ expression: Expression) -> Bool {
    switch expression {
    case .call(.member(_, let name, _), _, _, _) where name == "schema" || name == "graph": true
    case .call(.member(let base, _, _), _, _, _): looksLikeSchemaCall(base)
    default: false
    }
  }

  private func isSchemaCall(_ value: Value) -> Bool {
    switch value {
    case .builderCall(let name, _, _, _): name == "schema" || name == "graph"
    case .methodCall(let base, "withRoomSchema", _, _): isSchemaCall(base)
    default: false
    }
  }

  // MARK: Schema

  func read(_ value: Value) throws(Diagnostic) -> InstantSchemaDefinition {
    var entitiesValue: Value?
    var linksValue: Value?
    var roomsValue: Value?
    var roomsDiscarded = false
    var call = value
    if case .methodCall(let base, _, let arguments, let origin) = value {
      if !arguments.isEmpty {
        throw fail(.invalid, "`.withRoomSchema<T>()` takes no arguments", at: origin, path: "")
      }
      interpreter.warn(
        "`.withRoomSchema<T>()` only sets rooms at the type level; its rooms cannot be read, so no room types are generated. Move them into `rooms: { … }` of `i.schema`.",
        at: origin, path: nil)
      roomsDiscarded = true
      call = base
    }
    guard case .builderCall(let kind, let typeArguments, let arguments, let origin) = call else {
      throw fail(.schemaNotFound, "expected `i.schema({ … })`, found \(call.kindDescription)", at: call.origin, path: "")
    }
    if typeArguments != nil {
      interpreter.warn("type arguments on `i.\(kind)` are ignored", at: origin, path: nil)
    }
    if kind == "schema" {
      guard arguments.count == 1, case .object(let entries, _) = arguments[0] else {
        throw fail(.invalid, "`i.schema` takes one object `{ entities, links, rooms }`, found \(arguments.count) arguments", at: origin, path: "")
      }
      for entry in entries {
        switch entry.key {
        case "entities": entitiesValue = try evaluate(entry, path: "entities")
        case "links": linksValue = try evaluate(entry, path: "links")
        case "rooms": roomsValue = try evaluate(entry, path: "rooms")
        default:
          throw fail(.invalid, "unknown key `\(entry.key)` in `i.schema({ … })`; expected entities, links or rooms", at: entry.origin, path: entry.key)
        }
      }
      guard entitiesValue != nil else {
        throw fail(.invalid, "`i.schema({ … })` has no `entities`; add `entities: { … }`", at: origin, path: "")
      }
    } else {
      interpreter.warn("`i.graph(…)` is deprecated; use `i.schema({ entities, links, rooms })`", at: origin, path: nil)
      switch arguments.count {
      case 2:
        entitiesValue = arguments[0]
        linksValue = arguments[1]
      case 3:
        interpreter.warn("the 3-argument `i.graph(appId, entities, links)` is a legacy form; its first argument is ignored", at: origin, path: nil)
        entitiesValue = arguments[1]
        linksValue = arguments[2]
      default:
        throw fail(.invalid, "`i.graph` takes `(entities, links)`, found \(arguments.count) arguments", at: origin, path: "")
      }
    }
    var schema = InstantSchemaDefinition()
    schema.entities = try readEntities(entitiesValue!)
    if let linksValue { schema.links = try readLinks(linksValue, entities: schema.entities) }
    if let roomsValue, !roomsDiscarded { schema.rooms = try readRooms(roomsValue) }
    return schema
  }

  // MARK: Entities

  private static let systemNamespaces: Set<String> = ["$users", "$files", "$streams"]

  private func readEntities(_ value: Value) throws(Diagnostic) -> [EntityDefinition] {
    var entities: [EntityDefinition] = []
    for entry in try object(value, path: "entities", expected: "an object of entities `{ name: i.entity({ … }) }`") {
      let path = "entities.\(entry.key)"
      interpreter.record(path, at: entry.origin)
      if entry.key.hasPrefix("$"), !Self.systemNamespaces.contains(entry.key) {
        interpreter.warn("`\(entry.key)`: names starting with `$` are reserved for InstantDB's system namespaces ($users, $files, $streams); push will reject it", at: entry.origin, path: path)
      }
      var entity = try readEntity(try evaluate(entry, path: path), name: entry.key, path: path)
      entity.documentation = entry.documentation
      entities.append(entity)
    }
    return entities
  }

  private func readEntity(_ value: Value, name: String, path: String) throws(Diagnostic) -> EntityDefinition {
    var value = value
    if case .methodCall(let base, let method, _, let origin) = value {
      guard method == "asType" else {
        throw fail(.unsupported, "`.\(method)()` is not a method of `i.entity`; only `.asType<T>()` is", at: origin, path: path)
      }
      interpreter.warn("`.asType<T>()` only changes TypeScript types; it is ignored", at: origin, path: path)
      value = base
    }
    guard case .builderCall("entity", let typeArguments, let arguments, let origin) = value else {
      throw fail(.invalid, "expected `i.entity({ … })`, found \(value.kindDescription)", at: value.origin, path: path)
    }
    if typeArguments != nil {
      throw fail(.unsupported, "`i.entity` takes no type arguments", at: origin, path: path)
    }
    guard arguments.count == 1, case .object(let entries, _) = arguments[0] else {
      throw fail(.invalid, "`i.entity` takes one object of attributes `{ name: i.string(), … }`", at: origin, path: path)
    }
    var attributes: [AttributeDefinition] = []
    for entry in entries {
      let attributePath = "\(path).\(entry.key)"
      interpreter.record(attributePath, at: entry.origin)
      let attributeValue = try evaluate(entry, path: attributePath)
      var attribute = try readAttribute(attributeValue, path: attributePath)
      attribute.name = entry.key
      attribute.documentation = entry.documentation
      if entry.key == "id" {
        interpreter.warn("`id` is implicit on every entity; the declared `id` attribute is dropped", at: entry.origin, path: attributePath)
        continue
      }
      attributes.append(attribute)
    }
    return EntityDefinition(name: name, attributes: attributes)
  }

  private func readAttribute(_ value: Value, path: String) throws(Diagnostic) -> AttributeDefinition {
    var modifiers: [(String, [Value], Origin)] = []
    var current = value
    while case .methodCall(let base, let name, let arguments, let origin) = current {
      modifiers.append((name, arguments, origin))
      current = base
    }
    guard case .builderCall(let kind, let typeArguments, let arguments, let origin) = current,
      let valueType = AttributeDefinition.ValueType(rawValue: kind)
    else {
      throw fail(
        .invalid,
        "expected an attribute such as `i.string()`, `i.number()`, `i.boolean()`, `i.date()`, `i.json()` or `i.any()`, found \(current.kindDescription)",
        at: current.origin, path: path)
    }
    if !arguments.isEmpty {
      throw fail(.invalid, "`i.\(kind)()` takes no arguments", at: arguments[0].origin, path: path)
    }
    var attribute = AttributeDefinition(name: "", valueType: valueType)
    if let typeArguments {
      guard valueType == .json || valueType == .string else {
        throw fail(.invalid, "`i.\(kind)` takes no type argument; only `i.json<T>()` and `i.string<T>()` do", at: origin, path: path)
      }
      attribute.typeArgumentText = typeArguments.text
      attribute.typeArgument = interpreter.resolveTypeArguments(typeArguments, in: origin.module)
    }
    for (name, arguments, modifierOrigin) in modifiers.reversed() {
      if !arguments.isEmpty, ["optional", "unique", "indexed", "clientRequired"].contains(name) {
        throw fail(.invalid, "`.\(name)()` takes no arguments", at: modifierOrigin, path: path)
      }
      switch name {
      case "optional": attribute.isOptional = true
      case "unique": attribute.isUnique = true
      case "indexed": attribute.isIndexed = true
      case "clientRequired":
        attribute.isClientRequired = true
        interpreter.warn("`.clientRequired()` is deprecated: the property is non-optional in Swift but the server does not require it", at: modifierOrigin, path: path)
      default:
        throw fail(
          .unsupported,
          "unknown modifier `.\(name)()`; expected .optional(), .unique(), .indexed() or .clientRequired()",
          at: modifierOrigin, path: path)
      }
    }
    return attribute
  }

  // MARK: Links

  private func readLinks(_ value: Value, entities: [EntityDefinition]) throws(Diagnostic) -> [LinkDefinition] {
    let names = Set(entities.map(\.name))
    var links: [LinkDefinition] = []
    var labels: [String: [String: String]] = [:]
    for entity in entities {
      labels[entity.name] = Dictionary(entity.attributes.map { ($0.name, "the attribute") }, uniquingKeysWith: { first, _ in first })
    }
    for entry in try object(value, path: "links", expected: "an object of links `{ name: { forward, reverse } }`") {
      let path = "links.\(entry.key)"
      interpreter.record(path, at: entry.origin)
      let linkValue = try evaluate(entry, path: path)
      var forward: LinkDefinition.Side?
      var reverse: LinkDefinition.Side?
      for sideEntry in try object(linkValue, path: path, expected: "a link `{ forward: { on, has, label }, reverse: { on, has, label } }`") {
        let sidePath = "\(path).\(sideEntry.key)"
        switch sideEntry.key {
        case "forward": forward = try readSide(try evaluate(sideEntry, path: sidePath), isForward: true, path: sidePath)
        case "reverse": reverse = try readSide(try evaluate(sideEntry, path: sidePath), isForward: false, path: sidePath)
        default:
          throw fail(.invalid, "unknown key `\(sideEntry.key)` in a link; expected forward and reverse", at: sideEntry.origin, path: sidePath)
        }
      }
      guard let forward, let reverse else {
        throw fail(.invalid, "the link needs both `forward` and `reverse`", at: linkValue.origin, path: path)
      }
      for (side, sideName) in [(forward, "forward"), (reverse, "reverse")] {
        guard names.contains(side.namespace) else {
          throw fail(
            .invalid,
            "\(sideName).on names `\(side.namespace)`, which is not declared in `entities`; declare it (for system namespaces: `\(side.namespace): i.entity({})`)",
            at: linkValue.origin, path: "\(path).\(sideName).on")
        }
        if let existing = labels[side.namespace]?[side.label] {
          interpreter.warn(
            "the label `\(side.label)` on `\(side.namespace)` is already used by \(existing); labels and attributes share one namespace per entity, so `instant-cli push` may reject it",
            at: linkValue.origin, path: "\(path).\(sideName).label")
        }
        labels[side.namespace, default: [:]][side.label] = "the link `\(entry.key)`"
      }
      links.append(LinkDefinition(name: entry.key, forward: forward, reverse: reverse, documentation: entry.documentation))
    }
    return links
  }

  private func readSide(_ value: Value, isForward: Bool, path: String) throws(Diagnostic) -> LinkDefinition.Side {
    var on: String?
    var has: Cardinality?
    var label: String?
    var required = false
    var cascade = false
    for entry in try object(value, path: path, expected: "`{ on, has, label }`") {
      let keyPath = "\(path).\(entry.key)"
      let field = try evaluate(entry, path: keyPath)
      func string() throws(Diagnostic) -> String {
        guard case .string(let text, _) = field else {
          throw fail(.invalid, "`\(entry.key)` must be a string literal, found \(field.kindDescription)", at: field.origin, path: keyPath)
        }
        return text
      }
      switch entry.key {
      case "on": on = try string()
      case "label": label = try string()
      case "has":
        let text = try string()
        guard let cardinality = Cardinality(rawValue: text) else {
          throw fail(.invalid, "`has` must be \"one\" or \"many\", found \"\(text)\"", at: field.origin, path: keyPath)
        }
        has = cardinality
      case "required":
        guard case .boolean(let flag, _) = field else {
          throw fail(.invalid, "`required` must be true or false, found \(field.kindDescription)", at: field.origin, path: keyPath)
        }
        if isForward {
          required = flag
        } else {
          interpreter.warn("`required` on the reverse side is ignored by InstantDB", at: entry.origin, path: keyPath)
        }
      case "onDelete":
        let text = try string()
        guard text == "cascade" else {
          throw fail(.invalid, "`onDelete` must be \"cascade\", found \"\(text)\"", at: field.origin, path: keyPath)
        }
        cascade = true
      default:
        throw fail(.invalid, "unknown key `\(entry.key)` in a link side; expected on, has, label, required or onDelete", at: entry.origin, path: keyPath)
      }
    }
    guard let on else { throw fail(.invalid, "the link side needs `on: \"namespace\"`", at: value.origin, path: path) }
    guard let has else { throw fail(.invalid, "the link side needs `has: \"one\"` or `has: \"many\"`", at: value.origin, path: path) }
    guard let label else { throw fail(.invalid, "the link side needs `label: \"name\"`", at: value.origin, path: path) }
    if cascade, has == .many {
      interpreter.warn("`onDelete: \"cascade\"` on a `has: \"many\"` side is rejected by `instant-cli push`", at: value.origin, path: path)
    }
    return LinkDefinition.Side(namespace: on, has: has, label: label, isRequired: required, cascadesOnDelete: cascade)
  }

  // MARK: Rooms

  private func readRooms(_ value: Value) throws(Diagnostic) -> [RoomDefinition] {
    var rooms: [RoomDefinition] = []
    for entry in try object(value, path: "rooms", expected: "an object of rooms `{ name: { presence: i.entity({ … }) } }`") {
      let path = "rooms.\(entry.key)"
      interpreter.record(path, at: entry.origin)
      let roomValue = try evaluate(entry, path: path)
      var presence: EntityDefinition?
      var topics: [EntityDefinition] = []
      for roomEntry in try object(roomValue, path: path, expected: "a room `{ presence: i.entity({ … }), topics: { … } }`") {
        let roomPath = "\(path).\(roomEntry.key)"
        switch roomEntry.key {
        case "presence":
          presence = try readEntity(try evaluate(roomEntry, path: roomPath), name: "presence", path: roomPath)
        case "topics":
          for topicEntry in try object(try evaluate(roomEntry, path: roomPath), path: roomPath, expected: "an object of topics `{ name: i.entity({ … }) }`") {
            let topicPath = "\(roomPath).\(topicEntry.key)"
            var topic = try readEntity(try evaluate(topicEntry, path: topicPath), name: topicEntry.key, path: topicPath)
            topic.documentation = topicEntry.documentation
            topics.append(topic)
          }
        default:
          throw fail(.invalid, "unknown key `\(roomEntry.key)` in a room; expected presence and topics", at: roomEntry.origin, path: roomPath)
        }
      }
      guard let presence else {
        throw fail(.invalid, "the room needs `presence: i.entity({ … })` (use `i.entity({})` for none)", at: roomValue.origin, path: path)
      }
      rooms.append(RoomDefinition(name: entry.key, presence: presence, topics: topics, documentation: entry.documentation))
    }
    return rooms
  }
}
