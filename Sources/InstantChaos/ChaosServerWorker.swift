import Foundation
import InstantCore
import InstantLocal
import Logging

/// The `server` subcommand: instant-local on a data file, in a process of its own so `kill -9`
/// is real. Prints `{"port": n}` once it listens and exits when stdin closes.
package enum ChaosServerWorker {
  package static func run(data: String) async throws {
    var logger = Logger(label: "instant-chaos-server")
    logger.logLevel = .critical
    let server = try InstantLocalServer(
      configuration: .init(port: 0, storage: .file(data)), logger: logger)
    let port = try await server.start()
    say(["port": .number(Double(port))])
    for await _ in standardInputLines() {}
    await server.stop()
  }
}
