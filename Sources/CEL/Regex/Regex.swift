/// A compiled regular expression for `matches`, run as a Thompson NFA (a Pike VM without
/// captures): every position of the text is visited once with the set of live states, so the
/// time is at most proportional to text length × program size, whatever the pattern.
struct Regex: Sendable {
  private enum Instruction: Sendable {
    case char(Unicode.Scalar, foldCase: Bool)
    case set(Int)
    case any
    case anyButNewline
    case split(Int, Int)
    case jump(Int)
    case assert(RegexAssertion)
    case match
  }

  private var program: [Instruction] = []
  private var sets: [RegexCharSet] = []

  /// Instructions in the program: what matching a text costs per code point, at most.
  var size: Int { program.count }

  /// Compiles `pattern`; RE2 syntax errors, unsupported features and a program larger than
  /// `maxSize` instructions are errors.
  init(_ pattern: String, maxSize: Int) throws(RegexError) {
    let node = try RegexParser.parse(pattern)
    var compiler = Compiler(maxSize: maxSize)
    try compiler.emit(node)
    try compiler.append(.match)
    program = compiler.program
    sets = compiler.sets
  }

  private struct Compiler {
    let maxSize: Int
    var program: [Instruction] = []
    var sets: [RegexCharSet] = []

    mutating func append(_ instruction: Instruction) throws(RegexError) {
      guard program.count < maxSize else {
        throw RegexError(message: "pattern too large (more than \(maxSize) instructions)")
      }
      program.append(instruction)
    }

    mutating func emit(_ node: RegexNode) throws(RegexError) {
      switch node {
      case .empty: break
      case .literal(let c, let fold): try append(.char(c, foldCase: fold))
      case .any(let newline): try append(newline ? .any : .anyButNewline)
      case .set(let set):
        sets.append(set)
        try append(.set(sets.count - 1))
      case .assertion(let a): try append(.assert(a))
      case .concat(let items):
        for item in items { try emit(item) }
      case .alternate(let branches):
        // split L1, next; L1: branch; jump end; next: split L2, …
        var jumps: [Int] = []
        for (i, branch) in branches.enumerated() {
          if i < branches.count - 1 {
            let split = program.count
            try append(.split(split + 1, 0))
            try emit(branch)
            jumps.append(program.count)
            try append(.jump(0))
            program[split] = .split(split + 1, program.count)
          } else {
            try emit(branch)
          }
        }
        for j in jumps { program[j] = .jump(program.count) }
      case .repetition(let inner, let min, let max):
        for _ in 0..<min { try emit(inner) }
        if let max {
          // Each optional copy: split into it or past all of them.
          var splits: [Int] = []
          for _ in min..<max {
            splits.append(program.count)
            try append(.split(0, 0))
            try emit(inner)
          }
          for s in splits { program[s] = .split(s + 1, program.count) }
        } else {
          let loop = program.count
          try append(.split(0, 0))
          try emit(inner)
          try append(.jump(loop))
          program[loop] = .split(loop + 1, program.count)
        }
      }
    }
  }

  /// Whether the pattern matches anywhere in `text` (CEL's `matches` is a partial match; anchor
  /// with `^…$` for the whole string).
  func matches(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    var current = StateSet(capacity: program.count)
    var next = StateSet(capacity: program.count)
    var stack: [Int] = []
    for position in 0...scalars.count {
      if add(0, at: position, in: scalars, to: &current, stack: &stack) { return true }
      if position == scalars.count { break }
      let c = scalars[position]
      next.clear()
      for pc in current.members {
        let consumes: Bool
        switch program[pc] {
        case .char(let expected, let fold):
          consumes = expected == c || (fold && RegexCharSet.caseVariants(c).contains(expected))
        case .set(let index): consumes = sets[index].contains(c)
        case .any: consumes = true
        case .anyButNewline: consumes = c != "\n"
        default: consumes = false
        }
        if consumes, add(pc + 1, at: position + 1, in: scalars, to: &next, stack: &stack) { return true }
      }
      swap(&current, &next)
    }
    return false
  }

  /// Adds the states reachable from `pc` without consuming input; true when one is the match.
  private func add(_ pc: Int, at position: Int, in text: [Unicode.Scalar], to set: inout StateSet, stack: inout [Int]) -> Bool {
    stack.append(pc)
    while let pc = stack.popLast() {
      guard set.insert(pc) else { continue }
      switch program[pc] {
      case .match: return true
      case .jump(let target): stack.append(target)
      case .split(let a, let b):
        stack.append(b)
        stack.append(a)
      case .assert(let assertion):
        if holds(assertion, at: position, in: text) { stack.append(pc + 1) }
      default: break
      }
    }
    return false
  }

  private func holds(_ assertion: RegexAssertion, at position: Int, in text: [Unicode.Scalar]) -> Bool {
    let before = position > 0 ? text[position - 1] : nil
    let after = position < text.count ? text[position] : nil
    switch assertion {
    case .beginText: return position == 0
    case .endText: return position == text.count
    case .beginLine: return before == nil || before == "\n"
    case .endLine: return after == nil || after == "\n"
    case .wordBoundary, .notWordBoundary:
      func isWord(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        return RegexCharSet.word.contains { $0.contains(c.value) }
      }
      let boundary = isWord(before) != isWord(after)
      return assertion == .wordBoundary ? boundary : !boundary
    }
  }
}

/// A set of program counters with constant-time insert and clear, in insertion order.
private struct StateSet {
  private var dense: [Int] = []
  private var sparse: [Int]

  init(capacity: Int) { sparse = Array(repeating: 0, count: capacity) }

  var members: [Int] { dense }

  mutating func insert(_ pc: Int) -> Bool {
    let slot = sparse[pc]
    if slot < dense.count && dense[slot] == pc { return false }
    sparse[pc] = dense.count
    dense.append(pc)
    return true
  }

  mutating func clear() { dense.removeAll(keepingCapacity: true) }
}
