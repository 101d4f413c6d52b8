/// What a keys stress run found: another device's data the edits destroyed (each count must be 0),
/// the editor's own writes the server does not hold, and how many edits met a concurrent result.
package struct KeysStressReport: Sendable, CustomStringConvertible {
  package var scenario: KeysStress.Scenario
  package var seed: UInt64
  package var intervalMilliseconds: Int
  /// Each kind of damage to the writer's data, with how many rows or links it hit.
  package var damage: [(kind: String, count: Int)]
  /// Rows the editor wrote last whose value on the server is not what it wrote.
  package var ownEditsLost: Int
  package var edits: Int
  /// Times a result reached the key while an edit was in its reference and not yet saved (the race
  /// issue 19 is about).
  package var editsMetByResults: Int
  /// Writes the key made of the edits.
  package var writes: Int
  package var writerOps: Int
  package var rows: Int
  /// The ids of the rows counted as damage or as own edits lost.
  package var damagedIDs: [String] = []

  package var passed: Bool { damage.allSatisfy { $0.count == 0 } && ownEditsLost == 0 }

  package var description: String {
    let damage = damage.map { "\($0.kind): \($0.count)" }.joined(separator: ", ")
    return "\(scenario) seed \(seed), edits every \(intervalMilliseconds) ms: \(damage), own edits lost: \(ownEditsLost)"
      + " · \(edits) edits in \(writes) writes, \(editsMetByResults) met by a result"
      + " · writer: \(writerOps) writes, \(rows) rows · \(passed ? "PASS" : "FAIL")"
  }
}
