import CEL
import Testing

/// A record the way instant-local would hand one to a rule: fields read lazily, `ref` answered
/// by the host, missing fields `null` (as InstantDB's rules expect).
final class Record: CELObject, @unchecked Sendable {
  let fields: [String: CELValue]
  let refs: [String: [CELValue]]
  private(set) var reads: [String] = []

  init(_ fields: [String: CELValue], refs: [String: [CELValue]] = [:]) {
    self.fields = fields
    self.refs = refs
  }

  func member(_ name: String) throws(CELEvaluationError) -> CELValue? {
    reads.append(name)
    return fields[name] ?? .null
  }

  func call(_ method: String, _ arguments: [CELValue]) throws(CELEvaluationError) -> CELValue? {
    guard method == "ref", arguments.count == 1, case .string(let path) = arguments[0] else { return nil }
    guard let values = refs[path] else { throw .host("no link path '\(path)'") }
    return .list(values)
  }

  func materialize() throws(CELEvaluationError) -> CELValue? {
    .map(CELMap(fields.map { (CELMap.Key.string($0.key), $0.value) }))
  }
}

/// An object that only answers fields it has, and cannot be materialized.
final class Strict: CELObject {
  var typeName: String { "strict" }
  func member(_ name: String) throws(CELEvaluationError) -> CELValue? { name == "a" ? 1 : nil }
}

/// A rate-limit bucket: `rateLimit.posts.limit(key)` answered by the object itself.
final class Bucket: CELObject {
  func member(_ name: String) throws(CELEvaluationError) -> CELValue? { nil }
  func call(_ method: String, _ arguments: [CELValue]) throws(CELEvaluationError) -> CELValue? {
    method == "limit" ? .bool(arguments.first != "spammer") : nil
  }
}

@Suite("Host objects and functions")
struct HostTests {
  static var instantFunctions: CELFunctions {
    var functions = CELFunctions()
    functions.declareObjectMethod("ref", arity: 1)
    // InstantDB reads `timestamp(int)` as epoch milliseconds; strings fall through to RFC 3339.
    functions.function("timestamp", arity: 1) { args in
      guard case .int(let ms) = args[0] else { return nil }
      let (seconds, remainder) = ms.quotientAndRemainder(dividingBy: 1000)
      return CELTimestamp(seconds: seconds, nanos: Int32(remainder) * 1_000_000).map(CELValue.timestamp)
    }
    functions.method("getTime", arity: 0) { receiver, _ in
      guard case .timestamp(let t) = receiver else { return nil }
      return .int(t.seconds * 1000 + Int64(t.nanos / 1_000_000))
    }
    functions.declareObjectMethod("limit", arity: 1)
    return functions
  }

  static let variables: Set<String> = ["auth", "data", "newData", "request", "ruleParams", "rateLimit"]

  func activation() -> (CELVariables, Record, Record) {
    let auth = Record(["id": "u1", "email": "a@example.com"], refs: ["$user.roles.name": ["admin", "editor"]])
    let data = Record(
      ["id": "p1", "creatorId": "u1", "title": "Hello", "public": false],
      refs: ["owner.id": ["u1"], "members.id": ["u2", "u3"]])
    let variables = CELVariables([
      "auth": .object(auth), "data": .object(data), "newData": ["title": "x-ray"],
      "request": [
        "time": .timestamp(CELTimestamp(rfc3339: "2026-11-26T12:00:00Z")!),
        "modifiedFields": ["title"],
      ],
      "ruleParams": ["code": "secret"], "rateLimit": ["posts": .object(Bucket())],
    ])
    return (variables, auth, data)
  }

  func rule(_ source: String) throws -> CELValue {
    try CELProgram(source, variables: Self.variables, functions: Self.instantFunctions).evaluate(activation().0)
  }

  @Test("InstantDB-style rules", arguments: [
    ("auth.id == data.creatorId", true),
    ("auth.id in data.ref('owner.id')", true),
    ("size(data.title) < 100 && 'admin' in auth.ref('$user.roles.name')", true),
    ("request.time < timestamp('2027-01-01T00:00:00Z')", true),
    ("newData.title.startsWith('x')", true),
    ("auth.id != null && data.ref('members.id').exists(m, m == auth.id)", false),
    ("request.modifiedFields.all(f, f in ['title', 'body'])", true),
    ("cel.bind(isOwner, auth.id == data.creatorId, isOwner || data.public)", true),
    ("data.missingField == null", true),
    ("data.public ? true : auth.id == data.creatorId", true),
    ("ruleParams.code == 'secret'", true),
    ("rateLimit.posts.limit(auth.id)", true),
    ("timestamp(1700000000000) < request.time && request.time.getTime() == 1795694400000", true),
    ("auth.email.matches('^[^@]+@example\\\\.com$')", true),
  ])
  func instantRules(_ source: String, _ expected: Bool) throws {
    #expect(try rule(source) == .bool(expected), "\(source)")
  }

  @Test("Fields are read only when the rule reaches them")
  func lazyFields() throws {
    let (variables, _, data) = activation()
    let program = try CELProgram("data.public || data.creatorId == 'u1'", functions: Self.instantFunctions)
    #expect(try program.evaluate(variables) == true)
    #expect(data.reads == ["public", "creatorId"])
    let shortCircuit = try CELProgram("true || data.title == ''").evaluate(variables)
    #expect(shortCircuit == true)
    #expect(data.reads == ["public", "creatorId"])
  }

  @Test("A method nobody declared is rejected when the program is created")
  func undeclaredObjectMethod() {
    #expect(parseError("data.ref('owner.id')")?.message == "unknown method 'ref'")
    #expect(parseError("data.ref()", functions: Self.instantFunctions)?.message == "no method ref() taking 0 arguments")
    #expect(parseError("lookup(1)")?.message == "unknown function 'lookup'")
  }

  @Test("Host errors are evaluation errors, absorbed by || like any other")
  func hostErrors() throws {
    let (variables, _, _) = activation()
    let error = #expect(throws: CELEvaluationError.self) {
      try CELProgram("data.ref('nope') == []", functions: Self.instantFunctions).evaluate(variables)
    }
    #expect(error?.kind == .host)
    #expect(error?.message == "no link path 'nope'")
    #expect(try CELProgram("data.ref('nope') == [] || true", functions: Self.instantFunctions).evaluate(variables) == true)
  }

  @Test("Objects in equality, has(), in, size(), type() and macros")
  func objectOperations() throws {
    let (variables, _, _) = activation()
    func value(_ source: String) throws -> CELValue {
      try CELProgram(source, functions: Self.instantFunctions).evaluate(variables)
    }
    #expect(try value("data == data") == true)
    #expect(try value("data == auth") == false)
    #expect(try value("auth != null") == true)
    #expect(try value("data == {'id': 'p1'}") == false)
    #expect(try value("type(data) == map") == true)
    #expect(try value("has(data.title)") == true)
    #expect(try value("data['title']") == "Hello")
    #expect(try value("'title' in data") == true)
    #expect(try value("size(data)") == 4)
    #expect(try value("data.exists(k, k == 'creatorId')") == true)
    let strict = CELVariables(["s": .object(Strict())])
    #expect(try CELProgram("s.a + 1").evaluate(strict) == 2)
    #expect(try CELProgram("has(s.b)").evaluate(strict) == false)
    #expect(try CELProgram("type(s) == type(s)").evaluate(strict) == true)
    #expect(evaluationError("s.b", ["s": .object(Strict())])?.kind == .noSuchField)
    #expect(evaluationError("size(s)", ["s": .object(Strict())])?.kind == .noSuchOverload)
    #expect(parseError("s.foo()")?.message == "unknown method 'foo'")
  }

  @Test("A host function may extend a built-in: returning nil hands the call on")
  func overridingBuiltins() throws {
    let functions = Self.instantFunctions
    #expect(try eval("timestamp(1500)", functions: functions) == .timestamp(CELTimestamp(seconds: 1, nanos: 500_000_000)!))
    #expect(try eval("timestamp('1970-01-01T00:00:01Z')", functions: functions) == .timestamp(CELTimestamp(seconds: 1)!))
    #expect(evaluationError("timestamp(true)", functions: functions)?.kind == .noSuchOverload)
    #expect(evaluationError("'x'.getTime()", functions: functions)?.kind == .noSuchOverload)
  }

  @Test("Namespaced host functions")
  func namespaced() throws {
    var functions = CELFunctions()
    functions.function("geo.distance", arity: 2) { args in
      guard case .int(let a) = args[0], case .int(let b) = args[1] else { return nil }
      return .int(abs(a - b))
    }
    #expect(try eval("geo.distance(3, 10)", functions: functions) == 7)
    // A variable named like the namespace is still a variable.
    #expect(try CELProgram("geo.distance", variables: ["geo"], functions: functions)
      .evaluate(CELVariables(["geo": ["distance": 1]])) == 1)
    #expect(try eval("math.greatest(1, 2.5, 2u)") == 2.5)
  }

  @Test("One program evaluates concurrently from many tasks")
  func concurrentEvaluation() async throws {
    let program = try CELProgram("[1, 2, 3].map(x, x * n).all(y, y % n == 0)")
    let results = await withTaskGroup(of: Bool.self) { group in
      for n in 1...50 {
        group.addTask { (try? program.evaluate(CELVariables(["n": .int(Int64(n))]))) == .bool(true) }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results.count == 50 && results.allSatisfy { $0 })
  }
}
