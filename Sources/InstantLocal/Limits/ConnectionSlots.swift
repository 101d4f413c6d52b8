import NIOConcurrencyHelpers

/// The WebSocket sessions open now, server-wide and per client address, against
/// ``ServerLimits/maxConnections`` and ``ServerLimits/maxConnectionsPerIP``.
final class ConnectionSlots: Sendable {
  let total: Int?
  let perAddress: Int?
  private let state = NIOLockedValueBox((open: 0, byAddress: [String: Int]()))

  init(total: Int?, perAddress: Int?) {
    self.total = total
    self.perAddress = perAddress
  }

  /// Why a connection is refused.
  enum Refusal: Error, Equatable {
    case serverFull(Int)
    case addressFull(Int)

    /// The close frame's reason.
    var reason: String {
      switch self {
      case let .serverFull(limit): "the server has its most connections open (\(limit)); try again later"
      case let .addressFull(limit): "too many connections from your address (at most \(limit)); try again later"
      }
    }
  }

  /// Takes a slot for a connection from `address`; give it back with ``close(_:)`` when the
  /// connection ends. Checked and taken under one lock, so concurrent connects cannot overshoot.
  func open(_ address: String) -> Refusal? {
    state.withLockedValue { state in
      if let total, state.open >= total { return .serverFull(total) }
      if let perAddress, state.byAddress[address, default: 0] >= perAddress { return .addressFull(perAddress) }
      state.open += 1
      state.byAddress[address, default: 0] += 1
      return nil
    }
  }

  /// Gives back the slot ``open(_:)`` took.
  func close(_ address: String) {
    state.withLockedValue { state in
      state.open -= 1
      let left = state.byAddress[address, default: 1] - 1
      state.byAddress[address] = left > 0 ? left : nil
    }
  }

  /// How many are open (tests, metrics).
  var openCount: Int { state.withLockedValue { $0.open } }
}
