/// Hands out unique names within one scope, adding a number when a name is taken.
struct NameScope {
  private(set) var taken: Set<String>

  init(reserved: Set<String> = []) {
    taken = reserved
  }

  /// Claims `name` or, if it is taken, `name2`, `name3`…
  mutating func claim(_ name: String) -> String {
    if taken.insert(name).inserted { return name }
    var counter = 2
    while !taken.insert("\(name)\(counter)").inserted { counter += 1 }
    return "\(name)\(counter)"
  }

  func contains(_ name: String) -> Bool { taken.contains(name) }
}
