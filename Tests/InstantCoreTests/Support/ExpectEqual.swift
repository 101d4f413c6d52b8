import CustomDump
import Testing

/// `#expect(actual == expected)` with CustomDump's diff as the failure message.
///
/// CustomDump's `expectNoDifference` reports through swift-issue-reporting, which on this Linux
/// toolchain does not find the Testing framework: it prints "An issue was recorded without linking
/// the Testing framework" and the test still passes. Recording through `#expect` always fails the test.
func expectEqual<T: Equatable>(
  _ actual: T, _ expected: T, _ message: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let text = message()
  #expect(
    actual == expected,
    "\(text.isEmpty ? "" : text + "\n")\(diff(expected, actual, format: .proportional) ?? "(no diff)")",
    sourceLocation: sourceLocation)
}
