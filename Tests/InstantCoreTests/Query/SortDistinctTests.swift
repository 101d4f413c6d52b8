import Testing
@testable import InstantCore

/// A whole namespace read in the order its records were added sorts their indices, through a
/// bitmap when they are dense in their range: it must give exactly what `sorted()` gives.
@Suite("Sorting distinct record indices") struct SortDistinctTests {
  @Test("Dense, sparse, small and edge ranges sort as sorted() does") func agreesWithSorted() {
    var state: UInt64 = 0xD15C
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % n
    }
    var bitmapped = 0
    for round in 0..<400 {
      let count = [0, 1, 5, 32, 33, 64, 200, 1_000][round % 8]
      // Ranges from fully dense (every index) to very sparse, starting anywhere up to UInt32.max.
      let spread = [1, 2, 8, 64, 300, 100_000][round % 6]
      let base = round % 5 == 0 ? UInt32.max - UInt32(count * spread) : UInt32(next(1 << 20))
      var set = Set<UInt32>()
      while set.count < count { set.insert(base + UInt32(next(count * spread))) }
      var values = Array(set).shuffled()
      let expected = values.sorted()
      if count > 32, Int(expected.last! - expected.first!) / 64 < 4 * count { bitmapped += 1 }
      QueryRun.sortDistinct(&values)
      #expect(values == expected, "count \(count), spread \(spread), base \(base)")
    }
    #expect(bitmapped > 100, "too few cases took the bitmap: \(bitmapped)")
  }
}
