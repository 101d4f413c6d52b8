/// A seeded random number generator (SplitMix64), so a run is reproducible from its seed.
///
/// The tests' `SeededGenerator` (in TestSupport) is the same generator; this library ships, so it
/// keeps its own rather than depend on a test-only target.
package struct SplitMix: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A generator for one part of a run (a client, the fault schedule), independent of the others.
  package func derived(_ stream: UInt64) -> SplitMix {
    var copy = SplitMix(seed: state ^ (stream &* 0xD1B5_4A32_D192_ED03))
    _ = copy.next()
    return copy
  }

  /// True with probability `p`.
  package mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
}
