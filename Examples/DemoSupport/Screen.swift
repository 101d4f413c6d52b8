import Observation

/// Draws a frame, and draws it again when something it read changes (Observation) or when asked;
/// a frame the same as the last one drawn is not drawn again.
///
/// Redraws are driven by changes and coalesced: whatever happens, at most one redraw is pending
/// and at most one Observation registration is live, so a thousand changes cost what one does.
/// Observation says a value *will* change, and a `@Shared` value can change off the main actor,
/// so the redraw that follows a change can still read the old value, and a change made while a
/// frame is being read is not reported to the registration that frame makes: the latest change
/// is followed by one redraw after each of ``followUps``, which read the new value.
@MainActor
public final class Screen {
  /// When, after the latest change, the screen is redrawn once more: soon (the writer usually
  /// finishes within microseconds of Observation's notice), and later for a writer that was
  /// descheduled in between (a busy machine).
  public static let followUps: [Duration] = [.milliseconds(2), .milliseconds(15)]

  private let frame: @MainActor () -> [String]
  private let draw: @MainActor ([String]) -> Void
  private var last: [String]?
  private var stopped = false
  private var redrawPending = false
  /// The redraws that follow the latest change.
  private var followUp: Task<Void, Never>?

  /// How many Observation registrations are live (0 or 1): made by a render, not yet fired.
  public private(set) var liveRegistrations = 0
  /// How many times Observation reported a change of something a frame read.
  public private(set) var changes = 0

  /// A screen showing `frame`, drawn with `draw` (``Terminal/draw(_:)`` in a demo).
  public init(frame: @escaping @MainActor () -> [String], draw: @escaping @MainActor ([String]) -> Void = Terminal.draw) {
    self.frame = frame
    self.draw = draw
  }

  /// The frame drawn last.
  public var lastFrame: [String] { last ?? [] }

  /// Computes the frame now and draws it if it changed; watches what it read unless a watch is
  /// already live.
  public func render() {
    guard !stopped else { return }
    let lines: [String]
    if liveRegistrations == 0 {
      liveRegistrations = 1
      lines = withObservationTracking(frame) {
        Task { @MainActor [weak self] in self?.changed() }
      }
    } else {
      lines = frame()
    }
    guard lines != last else { return }
    last = lines
    draw(lines)
  }

  /// Draws the frame again even if it did not change (the terminal was resized).
  public func redraw() {
    last = nil
    setNeedsRender()
  }

  /// Asks for a redraw soon (after the key or change being handled), unless one is pending.
  public func setNeedsRender() {
    guard !redrawPending, !stopped else { return }
    redrawPending = true
    Task { @MainActor [weak self] in
      guard let self else { return }
      redrawPending = false
      render()
    }
  }

  /// Stops drawing (the demo is quitting).
  public func stop() {
    stopped = true
    followUp?.cancel()
  }

  private func changed() {
    liveRegistrations = 0
    changes += 1
    setNeedsRender()
    followUp?.cancel()
    let changed = ContinuousClock.now
    followUp = Task { @MainActor [weak self] in
      for delay in Self.followUps {
        try? await Task.sleep(until: changed + delay)
        guard !Task.isCancelled, let self else { return }
        setNeedsRender()
      }
    }
  }
}
