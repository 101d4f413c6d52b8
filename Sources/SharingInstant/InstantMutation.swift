/// One InstaML operation: what generated helpers such as `Todo.create(...)` return.
///
/// It is the explicit form of a write (never "the whole collection"): an action on one entity of
/// one namespace with its arguments. ``instaML`` gives the wire form
/// `[action, namespace, id, arguments]`.
public struct InstantMutation: Sendable, Hashable {
  /// What the operation does.
  public enum Action: String, Sendable, Hashable {
    /// Creates the entity; fails on the server if it exists.
    case create
    /// Creates or updates the given attributes.
    case update
    /// Deletes the entity and unlinks it everywhere.
    case delete
    /// Adds links: arguments map a link label to one id or an array of ids.
    case link
    /// Removes links: arguments map a link label to one id or an array of ids.
    case unlink
  }

  /// What the operation does.
  public var action: Action
  /// The entity's namespace, for example `"todos"`.
  public var namespace: String
  /// The entity's id.
  public var id: String
  /// Attribute values for create and update, link label to ids for link and unlink, and empty
  /// for delete. Keys are the schema's names, not the Swift ones, in the order they were added.
  public var arguments: JSONObject

  /// Creates an operation.
  public init(_ action: Action, namespace: String, id: String, arguments: JSONObject) {
    self.action = action
    self.namespace = namespace
    self.id = id
    self.arguments = arguments
  }

  /// Creates an operation without arguments, such as a delete.
  public init(_ action: Action, namespace: String, id: String) {
    self.init(action, namespace: namespace, id: id, arguments: [:])
  }

  /// The InstaML wire form: `[action, namespace, id, arguments]`.
  public var instaML: JSON {
    .array([.string(action.rawValue), .string(namespace), .string(id), .object(arguments)])
  }
}
