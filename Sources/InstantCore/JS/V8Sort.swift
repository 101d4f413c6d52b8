/// `Array.prototype.sort` as V8 implements it (TimSort: binary insertion sort for short runs,
/// merges with galloping). With a consistent comparator any stable sort gives the same answer;
/// this one also gives V8's answer when the comparator is inconsistent, as JavaScript's `>` is
/// between strings and numbers, which decides the order of mixed-type attrs.
struct V8Sort<Element> {
  var work: [Element]
  let compare: (Element, Element) -> Int
  var runs: [(base: Int, length: Int)] = []
  var minGallop = 7

  static func sort(_ elements: [Element], by compare: @escaping (Element, Element) -> Int) -> [Element] {
    guard elements.count >= 2 else { return elements }
    var sorter = V8Sort(work: elements, compare: compare)
    sorter.timSort()
    return sorter.work
  }

  init(work: [Element], compare: @escaping (Element, Element) -> Int) {
    self.work = work
    self.compare = compare
  }

  mutating func timSort() {
    var low = 0
    var remaining = work.count
    let minRun = Self.minRunLength(remaining)
    while remaining != 0 {
      var runLength = countAndMakeRun(low, low + remaining)
      if runLength < minRun {
        let forced = min(minRun, remaining)
        binaryInsertionSort(low, low + runLength, low + forced)
        runLength = forced
      }
      runs.append((low, runLength))
      mergeCollapse()
      low += runLength
      remaining -= runLength
    }
    mergeForceCollapse()
  }

  static func minRunLength(_ nArg: Int) -> Int {
    var n = nArg
    var r = 0
    while n >= 64 {
      r |= n & 1
      n >>= 1
    }
    return n + r
  }

  mutating func countAndMakeRun(_ lowArg: Int, _ high: Int) -> Int {
    let low = lowArg + 1
    if low == high { return 1 }
    var runLength = 2
    let elementLow = work[low]
    let elementLowPre = work[low - 1]
    var order = compare(elementLow, elementLowPre)
    let isDescending = order < 0
    var previous = elementLow
    var idx = low + 1
    while idx < high {
      let current = work[idx]
      order = compare(current, previous)
      if isDescending {
        if order >= 0 { break }
      } else {
        if order < 0 { break }
      }
      previous = current
      runLength += 1
      idx += 1
    }
    if isDescending { work[lowArg..<(lowArg + runLength)].reverse() }
    return runLength
  }

  mutating func binaryInsertionSort(_ low: Int, _ startArg: Int, _ high: Int) {
    var start = low == startArg ? startArg + 1 : startArg
    while start < high {
      var left = low
      var right = start
      let pivot = work[start]
      while left < right {
        let mid = left + ((right - left) >> 1)
        if compare(pivot, work[mid]) < 0 { right = mid } else { left = mid + 1 }
      }
      var p = start
      while p > left {
        work[p] = work[p - 1]
        p -= 1
      }
      work[left] = pivot
      start += 1
    }
  }

  mutating func mergeCollapse() {
    while runs.count > 1 {
      var n = runs.count - 2
      if (n > 0 && runs[n - 1].length <= runs[n].length + runs[n + 1].length)
        || (n > 1 && runs[n - 2].length <= runs[n - 1].length + runs[n].length)
      {
        if runs[n - 1].length < runs[n + 1].length { n -= 1 }
        mergeAt(n)
      } else if runs[n].length <= runs[n + 1].length {
        mergeAt(n)
      } else {
        break
      }
    }
  }

  mutating func mergeForceCollapse() {
    while runs.count > 1 {
      var n = runs.count - 2
      if n > 0 && runs[n - 1].length < runs[n + 1].length { n -= 1 }
      mergeAt(n)
    }
  }

  mutating func mergeAt(_ i: Int) {
    var (baseA, lengthA) = runs[i]
    let (baseB, lengthBArg) = runs[i + 1]
    var lengthB = lengthBArg
    runs[i] = (baseA, lengthA + lengthB)
    runs.remove(at: i + 1)
    let k = gallopRight(work[baseB], in: work, baseA, lengthA, 0)
    baseA += k
    lengthA -= k
    if lengthA == 0 { return }
    lengthB = gallopLeft(work[baseA + lengthA - 1], in: work, baseB, lengthB, lengthB - 1)
    if lengthB == 0 { return }
    if lengthA <= lengthB {
      mergeLow(baseA, lengthA, baseB, lengthB)
    } else {
      mergeHigh(baseA, lengthA, baseB, lengthB)
    }
  }

  /// Where `key` goes in the sorted run [base, base+length) of `array`: before equal elements.
  func gallopLeft(_ key: Element, in array: [Element], _ base: Int, _ length: Int, _ hint: Int) -> Int {
    var lastOfs = 0
    var offset = 1
    let baseHintElement = array[base + hint]
    var order = compare(baseHintElement, key)
    if order < 0 {
      let maxOfs = length - hint
      while offset < maxOfs {
        order = compare(array[base + hint + offset], key)
        if order >= 0 { break }
        lastOfs = offset
        offset = (offset << 1) + 1
        if offset <= 0 { offset = maxOfs }
      }
      if offset > maxOfs { offset = maxOfs }
      lastOfs += hint
      offset += hint
    } else {
      let maxOfs = hint + 1
      while offset < maxOfs {
        order = compare(array[base + hint - offset], key)
        if order < 0 { break }
        lastOfs = offset
        offset = (offset << 1) + 1
        if offset <= 0 { offset = maxOfs }
      }
      if offset > maxOfs { offset = maxOfs }
      let tmp = lastOfs
      lastOfs = hint - offset
      offset = hint - tmp
    }
    lastOfs += 1
    while lastOfs < offset {
      let m = lastOfs + ((offset - lastOfs) >> 1)
      order = compare(array[base + m], key)
      if order < 0 { lastOfs = m + 1 } else { offset = m }
    }
    return offset
  }

  /// Where `key` goes in the sorted run of `array`: after equal elements.
  func gallopRight(_ key: Element, in array: [Element], _ base: Int, _ length: Int, _ hint: Int) -> Int {
    var lastOfs = 0
    var offset = 1
    let baseHintElement = array[base + hint]
    var order = compare(key, baseHintElement)
    if order < 0 {
      let maxOfs = hint + 1
      while offset < maxOfs {
        order = compare(key, array[base + hint - offset])
        if order >= 0 { break }
        lastOfs = offset
        offset = (offset << 1) + 1
        if offset <= 0 { offset = maxOfs }
      }
      if offset > maxOfs { offset = maxOfs }
      let tmp = lastOfs
      lastOfs = hint - offset
      offset = hint - tmp
    } else {
      let maxOfs = length - hint
      while offset < maxOfs {
        order = compare(key, array[base + hint + offset])
        if order < 0 { break }
        lastOfs = offset
        offset = (offset << 1) + 1
        if offset <= 0 { offset = maxOfs }
      }
      if offset > maxOfs { offset = maxOfs }
      lastOfs += hint
      offset += hint
    }
    lastOfs += 1
    while lastOfs < offset {
      let m = lastOfs + ((offset - lastOfs) >> 1)
      order = compare(key, array[base + m])
      if order < 0 { offset = m } else { lastOfs = m + 1 }
    }
    return offset
  }

  mutating func mergeLow(_ baseA: Int, _ lengthAArg: Int, _ baseB: Int, _ lengthBArg: Int) {
    var lengthA = lengthAArg
    var lengthB = lengthBArg
    let temp = Array(work[baseA..<(baseA + lengthA)])
    var dest = baseA
    var cursorTemp = 0
    var cursorB = baseB
    work[dest] = work[cursorB]
    dest += 1
    cursorB += 1
    lengthB -= 1
    func finish(_ s: inout V8Sort) {
      if lengthA > 0 {
        for i in 0..<lengthA { s.work[dest + i] = temp[cursorTemp + i] }
      }
    }
    if lengthB == 0 {
      finish(&self)
      return
    }
    if lengthA == 1 {
      for i in 0..<lengthB { work[dest + i] = work[cursorB + i] }
      work[dest + lengthB] = temp[cursorTemp]
      return
    }
    outer: while true {
      var nofWinsA = 0
      var nofWinsB = 0
      while true {
        let order = compare(work[cursorB], temp[cursorTemp])
        if order < 0 {
          work[dest] = work[cursorB]
          dest += 1
          cursorB += 1
          nofWinsB += 1
          lengthB -= 1
          nofWinsA = 0
          if lengthB == 0 { break outer }
          if nofWinsB >= minGallop { break }
        } else {
          work[dest] = temp[cursorTemp]
          dest += 1
          cursorTemp += 1
          nofWinsA += 1
          lengthA -= 1
          nofWinsB = 0
          if lengthA == 1 { break outer }
          if nofWinsA >= minGallop { break }
        }
      }
      minGallop += 1
      var firstIteration = true
      while nofWinsA >= 7 || nofWinsB >= 7 || firstIteration {
        firstIteration = false
        minGallop = max(1, minGallop - 1)
        // Gallop in the temp copy of run A.
        nofWinsA = gallopRight(work[cursorB], in: temp, cursorTemp, lengthA, 0)
        if nofWinsA > 0 {
          for i in 0..<nofWinsA { work[dest + i] = temp[cursorTemp + i] }
          dest += nofWinsA
          cursorTemp += nofWinsA
          lengthA -= nofWinsA
          if lengthA == 1 { break outer }
          if lengthA == 0 { break outer }
        }
        work[dest] = work[cursorB]
        dest += 1
        cursorB += 1
        lengthB -= 1
        if lengthB == 0 { break outer }
        nofWinsB = gallopLeft(temp[cursorTemp], in: work, cursorB, lengthB, 0)
        if nofWinsB > 0 {
          for i in 0..<nofWinsB { work[dest + i] = work[cursorB + i] }
          dest += nofWinsB
          cursorB += nofWinsB
          lengthB -= nofWinsB
          if lengthB == 0 { break outer }
        }
        work[dest] = temp[cursorTemp]
        dest += 1
        cursorTemp += 1
        lengthA -= 1
        if lengthA == 1 { break outer }
      }
      minGallop += 1
    }
    if lengthA == 1 {
      for i in 0..<lengthB { work[dest + i] = work[cursorB + i] }
      work[dest + lengthB] = temp[cursorTemp]
    } else if lengthA > 0 {
      for i in 0..<lengthA { work[dest + i] = temp[cursorTemp + i] }
    }
  }

  mutating func mergeHigh(_ baseA: Int, _ lengthAArg: Int, _ baseB: Int, _ lengthBArg: Int) {
    var lengthA = lengthAArg
    var lengthB = lengthBArg
    let temp = Array(work[baseB..<(baseB + lengthB)])
    var dest = baseB + lengthB - 1
    var cursorTemp = lengthB - 1
    var cursorA = baseA + lengthA - 1
    work[dest] = work[cursorA]
    dest -= 1
    cursorA -= 1
    lengthA -= 1
    if lengthA == 0 {
      for i in 0..<lengthB { work[dest - (lengthB - 1) + i] = temp[i] }
      return
    }
    if lengthB == 1 {
      dest -= lengthA
      cursorA -= lengthA
      for i in stride(from: lengthA - 1, through: 0, by: -1) { work[dest + 1 + i] = work[cursorA + 1 + i] }
      work[dest] = temp[cursorTemp]
      return
    }
    outer: while true {
      var nofWinsA = 0
      var nofWinsB = 0
      while true {
        let order = compare(temp[cursorTemp], work[cursorA])
        if order < 0 {
          work[dest] = work[cursorA]
          dest -= 1
          cursorA -= 1
          nofWinsA += 1
          lengthA -= 1
          nofWinsB = 0
          if lengthA == 0 { break outer }
          if nofWinsA >= minGallop { break }
        } else {
          work[dest] = temp[cursorTemp]
          dest -= 1
          cursorTemp -= 1
          nofWinsB += 1
          lengthB -= 1
          nofWinsA = 0
          if lengthB == 1 { break outer }
          if nofWinsB >= minGallop { break }
        }
      }
      minGallop += 1
      var firstIteration = true
      while nofWinsA >= 7 || nofWinsB >= 7 || firstIteration {
        firstIteration = false
        minGallop = max(1, minGallop - 1)
        let k = gallopRight(temp[cursorTemp], in: work, baseA, lengthA, lengthA - 1)
        nofWinsA = lengthA - k
        if nofWinsA > 0 {
          dest -= nofWinsA
          cursorA -= nofWinsA
          for i in stride(from: nofWinsA - 1, through: 0, by: -1) { work[dest + 1 + i] = work[cursorA + 1 + i] }
          lengthA -= nofWinsA
          if lengthA == 0 { break outer }
        }
        work[dest] = temp[cursorTemp]
        dest -= 1
        cursorTemp -= 1
        lengthB -= 1
        if lengthB == 1 { break outer }
        let k2 = gallopLeft(work[cursorA], in: temp, 0, lengthB, lengthB - 1)
        nofWinsB = lengthB - k2
        if nofWinsB > 0 {
          dest -= nofWinsB
          cursorTemp -= nofWinsB
          for i in 0..<nofWinsB { work[dest + 1 + i] = temp[cursorTemp + 1 + i] }
          lengthB -= nofWinsB
          if lengthB == 1 { break outer }
          if lengthB == 0 { break outer }
        }
        work[dest] = work[cursorA]
        dest -= 1
        cursorA -= 1
        lengthA -= 1
        if lengthA == 0 { break outer }
      }
      minGallop += 1
    }
    if lengthB == 1 {
      dest -= lengthA
      cursorA -= lengthA
      for i in stride(from: lengthA - 1, through: 0, by: -1) { work[dest + 1 + i] = work[cursorA + 1 + i] }
      work[dest] = temp[cursorTemp]
    } else if lengthB > 0 {
      for i in 0..<lengthB { work[dest - (lengthB - 1) + i] = temp[i] }
    }
  }
}
