/// String comparisons with JavaScript's semantics.
enum JSString {
  /// `a < b` as JavaScript compares strings: by UTF-16 code units.
  ///
  /// UTF-8 byte order equals code point order, which differs from UTF-16 order only between a
  /// supplementary character (UTF-8 lead byte F0–F4) and one in U+E000–U+FFFF (lead EE–EF).
  static func utf16Less(_ a: String, _ b: String) -> Bool {
    compareUTF16(a, b) < 0
  }

  /// -1, 0 or 1 by UTF-16 code unit order.
  static func compareUTF16(_ a: String, _ b: String) -> Int {
    var a = a
    var b = b
    return a.withUTF8 { x in
      b.withUTF8 { y in
        let n = min(x.count, y.count)
        var i = 0
        while i < n {
          let p = x[i]
          let q = y[i]
          if p != q {
            if p >= 0xF0, q == 0xEE || q == 0xEF { return -1 }
            if q >= 0xF0, p == 0xEE || p == 0xEF { return 1 }
            return p < q ? -1 : 1
          }
          i += 1
        }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
      }
    }
  }
}
