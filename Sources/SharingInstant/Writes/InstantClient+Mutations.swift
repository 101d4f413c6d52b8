import InstantCore
import InstantDB

extension InstantMutation {
  /// The client's form of this operation.
  public var op: InstaMLOp {
    let action: InstaMLOp.Action =
      switch action {
      case .create: .create
      case .update: .update
      case .delete: .delete
      case .link: .link
      case .unlink: .unlink
      }
    return InstaMLOp(action, namespace, .string(id), action == .delete ? nil : .object(arguments))
  }
}

extension InstantClient {
  /// Applies generated mutations (`Todo.create(title: "Run")`, `Todo.update(id, done: true)`, …)
  /// as one transaction, exactly as the same InstaML ops would be.
  @discardableResult
  public func transact(_ mutations: [InstantMutation]) async throws(InstantClientError) -> WriteReceipt {
    try await transact(mutations.map(\.op))
  }

  @discardableResult
  public func transact(_ mutation: InstantMutation, _ more: InstantMutation...) async throws(InstantClientError) -> WriteReceipt {
    try await transact([mutation] + more)
  }
}
