import InstantCore
import OrderedCollections

/// Applies the server's `patch-presence` edits (an editscript edit list, docs/protocol.md, "Presence pushes") to a
/// room's member map: `[path, "+", value]` adds (inserts into arrays), `[path, "r", value]`
/// replaces, `[path, "-"]` removes. Paths are object keys (strings) and array indices (numbers).
/// An edit that does not apply throws and changes nothing.
enum PresenceEdits {
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  static func apply(_ edit: JSON, to root: inout JSON) throws(Malformed) {
    guard let parts = edit.arrayValue, parts.count >= 2, let path = parts[0].arrayValue,
      let op = parts[1].stringValue, ["+", "r", "-"].contains(op)
    else { throw Malformed(description: "an edit is not [path, op, value?]") }
    if op != "-" && parts.count < 3 { throw Malformed(description: "a \(op) edit has no value") }
    try update(&root, path[...], op, parts.count > 2 ? parts[2] : .null)
  }

  private static func update(_ node: inout JSON, _ path: ArraySlice<JSON>, _ op: String, _ value: JSON) throws(Malformed) {
    guard let head = path.first else {
      node = op == "-" ? .null : value
      return
    }
    let rest = path.dropFirst()
    switch (node, head) {
    case (.object(var object), .string(let key)):
      node = .null  // lets `object` be edited in place; put back whatever happens
      defer { node = .object(object) }
      if rest.isEmpty {
        if op == "-" { object.removeValue(forKey: key) } else { object[key] = value }
      } else {
        let existed = object[key] != nil
        var child = object[key] ?? .object([:])
        if existed { object[key] = .null }  // `child` is then the only reference: edited in place
        do {
          try update(&child, rest, op, value)
        } catch {
          if existed { object[key] = child }
          throw error
        }
        object[key] = child
      }
    case (.array(var array), .number):
      guard let index = head.intValue, index >= 0 else { throw Malformed(description: "a bad array index") }
      node = .null
      defer { node = .array(array) }
      if rest.isEmpty {
        switch op {
        case "+" where index <= array.count: array.insert(value, at: index)
        case "r" where index < array.count: array[index] = value
        case "-" where index < array.count: array.remove(at: index)
        default: throw Malformed(description: "array index \(index) out of range")
        }
      } else {
        guard index < array.count else { throw Malformed(description: "array index \(index) out of range") }
        try update(&array[index], rest, op, value)
      }
    default:
      throw Malformed(description: "a path that does not match the presence's shape")
    }
  }
}
