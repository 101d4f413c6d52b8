import CEL
import Testing

/// String and bytes literals and functions, the strings extension, and `matches`.
@Suite("Strings")
struct StringTests {
  static let literalCases: [Case] = [
    Case("'a\\tb'", "a\tb"), Case("\"it's\"", "it's"), Case("'\\\\'", "\\"), Case("r'\\n'", "\\n"),
    Case("R\"\\d+\"", "\\d+"), Case("'''a\nb'''", "a\nb"), Case("\"\"\"x\"y\"\"\"", "x\"y"),
    Case("'\\u00e9\\U0001F600'", "\u{e9}\u{1F600}"), Case("'\\x41\\101'", "AA"), Case("'\\377'", "\u{ff}"),
    Case("b'\\377'", .value(.bytes([255]))), Case("b'\\xff'", .value(.bytes([255]))),
    Case("b'\u{ff}'", .value(.bytes([0xC3, 0xBF]))), Case("rb'\\x'", .value(.bytes([92, 120]))),
    Case("'\\a\\b\\f\\n\\r\\t\\v\\?\\`'", "\u{07}\u{08}\u{0C}\n\r\t\u{0B}?`"),
    Case("'\\s'", .parseError), Case("'\\uD800'", .parseError), Case("'\\U00110000'", .parseError),
    Case("b'\\u0041'", .parseError), Case("'\\400'", .parseError), Case("'abc", .parseError),
    Case("'a\nb'", .parseError), Case("'''abc''", .parseError),
  ]

  static let functionCases: [Case] = [
    Case("size('hello')", 5), Case("'hello'.size()", 5), Case("size('\u{e9}\u{1F600}')", 2),
    Case("size('e\\u0301')", 2), Case("size(b'\\xF0\\x9F\\xA4\\xAA')", 4), Case("size([1, 2])", 2),
    Case("size({'a': 1})", 1), Case("size(1)", .error(.noSuchOverload)), Case("size(null)", .error(.noSuchOverload)),
    Case("'hello'.contains('ell')", true), Case("'hello'.contains('')", true), Case("''.contains('')", true),
    Case("''.contains('a')", false), Case("'hello'.startsWith('he')", true), Case("'hello'.startsWith('lo')", false),
    Case("'hello'.endsWith('lo')", true), Case("'e\\u0301'.startsWith('e')", true),
    Case("'hello'.contains(1)", .error(.noSuchOverload)), Case("1.contains('a')", .error(.noSuchOverload)),
    // The strings extension.
    Case("'hello'.charAt(1)", "e"), Case("'hello'.charAt(5)", ""), Case("'hello'.charAt(6)", .error(.invalidArgument)),
    Case("'h\u{e9}llo'.charAt(1)", "\u{e9}"), Case("'hello mellow'.indexOf('ello')", 1),
    Case("'hello mellow'.indexOf('ello', 2)", 7), Case("'hello'.indexOf('x')", -1), Case("'hello'.indexOf('')", 0),
    Case("'\u{1F600}a'.indexOf('a')", 1), Case("'hello'.indexOf('l', 9)", .error(.invalidArgument)),
    Case("'hello mellow'.lastIndexOf('ello')", 7), Case("'hello mellow'.lastIndexOf('ello', 6)", 1),
    Case("'hello'.lastIndexOf('')", 5), Case("'TacoCat \u{c6}'.lowerAscii()", "tacocat \u{c6}"),
    Case("'TacoCat \u{e6}'.upperAscii()", "TACOCAT \u{e6}"), Case("'  \\t trim \\n'.trim()", "trim"),
    Case("'hello hello'.replace('he', 'we')", "wello wello"), Case("'hello hello'.replace('he', 'we', 1)", "wello hello"),
    Case("'hello'.replace('he', 'we', 0)", "hello"), Case("'abc'.replace('', '-')", "-a-b-c-"),
    Case("'a,b,c'.split(',')", ["a", "b", "c"]), Case("'a,b,c'.split(',', 2)", ["a", "b,c"]),
    Case("'a,b,c'.split(',', 0)", []), Case("'abc'.split('')", ["a", "b", "c"]), Case("''.split(',')", [""]),
    Case("'tacocat'.substring(4)", "cat"), Case("'tacocat'.substring(0, 4)", "taco"),
    Case("'tacocat'.substring(-1)", .error(.invalidArgument)), Case("'tacocat'.substring(2, 1)", .error(.invalidArgument)),
    Case("['a', 'b'].join()", "ab"), Case("['a', 'b'].join('/')", "a/b"), Case("[].join('/')", ""),
    Case("['a', 1].join()", .error(.noSuchOverload)),
    // Conversions to and from strings.
    Case("string(1.0)", "1.0"), Case("string(1e7)", "1.0E7"), Case("string(0.001)", "0.001"),
    Case("string(1.5e-4)", "1.5E-4"), Case("string(-2.5)", "-2.5"), Case("string(123456.789)", "123456.789"),
    Case("string(true)", "true"), Case("string(18446744073709551615u)", "18446744073709551615"),
    Case("string(b'\\xff')", .error(.invalidArgument)), Case("bytes('\u{e9}')", .value(.bytes([0xC3, 0xA9]))),
  ]

  static let regexCases: [Case] = [
    Case("'foobar'.matches('foo.*')", true), Case("matches('foobar', 'bar')", true),
    Case("'foobar'.matches('^bar')", false), Case("'foobar'.matches('^foo(bar|baz)$')", true),
    Case("'user@example.com'.matches('^[a-z0-9._%+-]+@[a-z0-9.-]+\\\\.[a-z]{2,}$')", true),
    Case("'x@y'.matches('^[^@]+@[^@]+\\\\.[a-z]+$')", false), Case("'ABC'.matches('(?i)^abc$')", true),
    Case("'abc'.matches('^a(?i:B)c$')", true), Case("'aBC'.matches('^a(?i:b)c$')", false),
    Case("'a1_'.matches('^\\\\w+$')", true), Case("'a b'.matches('\\\\s')", true), Case("'12'.matches('^\\\\d{2}$')", true),
    Case("'123'.matches('^\\\\d{2}$')", false), Case("'aaa'.matches('^a{2,}$')", true), Case("'a'.matches('^a{2,3}$')", false),
    Case("'hello world'.matches('\\\\bworld\\\\b')", true), Case("'helloworld'.matches('\\\\bworld')", false),
    Case("'a\\nb'.matches('^b')", false), Case("'a\\nb'.matches('(?m)^b')", true), Case("'a\\nb'.matches('a.b')", false),
    Case("'a\\nb'.matches('(?s)a.b')", true), Case("'[x]'.matches('\\\\[x\\\\]')", true), Case("'x'.matches('[[:alpha:]]')", true),
    Case("'\u{e9}'.matches('^.$')", true), Case("''.matches('')", true), Case("'ab'.matches('a|')", true),
    Case("'x'.matches(p)", true, bindings: ["p": "x|y"]),
    Case("'x'.matches(p)", .error(.invalidArgument), bindings: ["p": "(x"]),
    // Invalid or unsupported literal patterns are rejected when the program is created.
    Case("'x'.matches('(x')", .parseError), Case("'x'.matches('(?=x)')", .parseError),
    Case("'x'.matches('(a)\\\\1')", .parseError), Case("'x'.matches('\\\\p{Greek}')", .parseError),
    Case("'x'.matches('a**')", .parseError), Case("'x'.matches('a{1001}')", .parseError),
  ]

  @Test(arguments: literalCases) func literals(_ c: Case) { check(c) }
  @Test(arguments: functionCases) func functions(_ c: Case) { check(c) }
  @Test(arguments: regexCases) func regex(_ c: Case) { check(c) }

  @Test("A catastrophic-backtracking pattern runs in linear time")
  func noBacktracking() throws {
    let text = String(repeating: "a", count: 5_000)
    let clock = ContinuousClock()
    let start = clock.now
    #expect(try eval("s.matches('^(a+)+$')", ["s": .string(text)]) == true)
    #expect(try eval("s.matches('^(a|aa)*b$')", ["s": .string(text)]) == false)
    #expect(try eval("s.matches('(a*)*(a*)*(a*)*c')", ["s": .string(text)]) == false)
    #expect(clock.now - start < .seconds(5))
  }
}
