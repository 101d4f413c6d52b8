import Testing
@testable import InstantCore
@Test func placeholder() { #expect(Bool(true)) }
