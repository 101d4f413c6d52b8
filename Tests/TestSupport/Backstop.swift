/// How long a test waits for what it expects before it gives up: a backstop for a test that is
/// broken, never the assertion.
///
/// It is long on purpose. `swift test` starts the suite's tests at once; on two cores shared with
/// another build, a wait that takes a tenth of a second alone has taken more than 20 seconds
/// (docs/reliability.md, "The suite under load"). A test that passes never waits this long, and
/// one that fails still ends.
public let backstop: Duration = .seconds(180)
