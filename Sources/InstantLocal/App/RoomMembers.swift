import InstantCore
import OrderedCollections

/// Who is in each of an app's rooms, with what presence: room id → session id → member
/// `{peer-id, instance-id, user, data}`. The app's actor owns it; each change returns the room
/// before and after, and ``edits(from:to:)`` what a member who saw the one must apply to see the
/// other, so the actor only sends (docs/protocol.md, "Presence and rooms").
struct RoomMembers {
  typealias Room = OrderedDictionary<String, JSON>
  private var rooms: [String: Room] = [:]

  /// The id the reference reports as `instance-id` (the machine); clients ignore it.
  static let instanceID = "instant-local"

  /// Room `roomID`'s members, in the order they joined (none for a room nobody is in).
  func members(of roomID: String) -> Room { rooms[roomID] ?? [:] }

  /// Whether session `id` is in room `roomID`.
  func contains(_ id: String, in roomID: String) -> Bool { rooms[roomID]?[id] != nil }

  /// Adds session `id` as a member whose user is `user` (a member that joins again keeps its data).
  mutating func join(_ id: String, user: JSON, roomID: String, data: JSON?) -> (old: Room, new: Room) {
    let old = members(of: roomID)
    var new = old
    let initial = data.flatMap { $0 == .null ? nil : $0 } ?? [:]
    new[id] = [
      "peer-id": .string(id), "instance-id": .string(Self.instanceID), "user": user, "data": old[id]?["data"] ?? initial,
    ]
    rooms[roomID] = new
    return (old, new)
  }

  /// Replaces member `id`'s data wholesale; nil when it is not in the room.
  mutating func setData(_ data: JSON?, of id: String, in roomID: String) -> (old: Room, new: Room)? {
    guard let old = rooms[roomID], var member = old[id]?.objectValue else { return nil }
    var new = old
    member["data"] = data ?? .null
    new[id] = .object(member)
    rooms[roomID] = new
    return (old, new)
  }

  /// Removes member `id` (a room left empty goes); nil when it was not in the room.
  mutating func remove(_ id: String, from roomID: String) -> (old: Room, new: Room)? {
    guard let old = rooms[roomID], old[id] != nil else { return nil }
    var new = old
    new.removeValue(forKey: id)
    rooms[roomID] = new.isEmpty ? nil : new
    return (old, new)
  }

  /// The coarse `patch-presence` edits from `old` to `new`, one whole-member edit per member that
  /// left (`-`), changed (`r`) or joined (`+`); empty when nothing changed.
  static func edits(from old: Room, to new: Room) -> [JSON] {
    var edits: [JSON] = []
    for sid in old.keys where new[sid] == nil { edits.append([[.string(sid)], "-"]) }
    for (sid, member) in new {
      if let before = old[sid] {
        if before != member { edits.append([[.string(sid)], "r", member]) }
      } else {
        edits.append([[.string(sid)], "+", member])
      }
    }
    return edits
  }
}
