/// A reproducible random number generator (SplitMix64): tests that draw random input take a seed
/// and name it in every failure, so a failing run can be replayed.
///
/// InstantChaos has the same generator as `SplitMix` (a test checks that both draw the same
/// sequence): it ships as a library, which cannot depend on this test-only target, and this
/// target depends on nothing so that every test target can use it.
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
