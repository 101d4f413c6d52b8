/// The state of one evaluation: the variables, the comprehension and `cel.bind` slots, and the
/// step budget every operation draws from.
final class Frame {
  let activation: any CELActivation
  let limits: CELLimits
  private(set) var steps = 0
  /// Values of comprehension variables and bound names, by the slot the compiler gave them.
  var locals: [CELValue?]
  /// `cel.bind` values not read yet: evaluated on first use, so an unused binding costs nothing.
  var pending: [Evaluator?]

  init(activation: any CELActivation, limits: CELLimits, slots: Int) {
    self.activation = activation
    self.limits = limits
    self.locals = Array(repeating: nil, count: slots)
    self.pending = Array(repeating: nil, count: slots)
  }

  /// Counts one step.
  @inline(__always)
  func step() throws(CELEvaluationError) {
    steps += 1
    if steps > limits.maxEvaluationSteps { throw stepLimit() }
  }

  /// Counts `count` steps for an operation whose cost grows with its input.
  func charge(_ count: Int) throws(CELEvaluationError) {
    steps += max(count, 0)
    if steps > limits.maxEvaluationSteps { throw stepLimit() }
  }

  private func stepLimit() -> CELEvaluationError {
    CELEvaluationError(
      .limitExceeded, "evaluation exceeded \(limits.maxEvaluationSteps) steps (CELLimits.maxEvaluationSteps)")
  }

  /// Rejects a list or map that would outgrow ``CELLimits/maxCollectionSize``.
  func checkCollection(_ count: Int) throws(CELEvaluationError) {
    if count > limits.maxCollectionSize {
      throw CELEvaluationError(
        .limitExceeded,
        "a list or map of \(count) elements exceeds the limit of \(limits.maxCollectionSize) (CELLimits.maxCollectionSize)")
    }
  }

  /// Rejects a string or bytes that would outgrow ``CELLimits/maxStringLength``.
  func checkLength(_ count: Int) throws(CELEvaluationError) {
    if count > limits.maxStringLength {
      throw CELEvaluationError(
        .limitExceeded,
        "a string or bytes of length \(count) exceeds the limit of \(limits.maxStringLength) (CELLimits.maxStringLength)")
    }
  }
}

/// A compiled expression: evaluates its node in a frame.
typealias Evaluator = @Sendable (Frame) throws(CELEvaluationError) -> CELValue
