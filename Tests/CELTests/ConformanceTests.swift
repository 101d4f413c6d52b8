import CEL
import Testing

/// The cel-spec conformance cases this implementation runs (see the files in `Conformance/`).
enum Conformance {}

@Suite("cel-spec conformance")
struct ConformanceTests {
  @Test(arguments: Conformance.basic) func basic(_ c: Case) { check(c) }
  @Test(arguments: Conformance.logic) func logic(_ c: Case) { check(c) }
  @Test(arguments: Conformance.comparisons) func comparisons(_ c: Case) { check(c) }
  @Test(arguments: Conformance.conversions) func conversions(_ c: Case) { check(c) }
  @Test(arguments: Conformance.fpMath) func floatingPoint(_ c: Case) { check(c) }
  @Test(arguments: Conformance.integerMath) func integerMath(_ c: Case) { check(c) }
  @Test(arguments: Conformance.lists) func lists(_ c: Case) { check(c) }
  @Test(arguments: Conformance.macros) func macros(_ c: Case) { check(c) }
  @Test(arguments: Conformance.parse) func parse(_ c: Case) { check(c) }
  @Test(arguments: Conformance.plumbing) func plumbing(_ c: Case) { check(c) }
  @Test(arguments: Conformance.string) func string(_ c: Case) { check(c) }
  @Test(arguments: Conformance.stringExt) func stringExtension(_ c: Case) { check(c) }
  @Test(arguments: Conformance.timestamps) func timestamps(_ c: Case) { check(c) }
  @Test(arguments: Conformance.mathExt) func mathExtension(_ c: Case) { check(c) }
  @Test(arguments: Conformance.bindingsExt) func bindings(_ c: Case) { check(c) }
  @Test(arguments: Conformance.fields) func fields(_ c: Case) { check(c) }
}
