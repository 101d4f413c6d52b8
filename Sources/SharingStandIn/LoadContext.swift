/// Why a key is asked to load: the reference is being created with an initial value, or the user
/// called `load()`.
public enum LoadContext<Value> {
  case initialValue(Value)
  case userInitiated

  /// The value the reference was created with, when there is one.
  public var initialValue: Value? {
    guard case .initialValue(let value) = self else { return nil }
    return value
  }
}

extension LoadContext: Sendable where Value: Sendable {}
extension LoadContext: Equatable where Value: Equatable {}
extension LoadContext: Hashable where Value: Hashable {}
