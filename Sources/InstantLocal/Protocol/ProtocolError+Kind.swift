extension ProtocolError {
  /// What went wrong, as a value to switch on (in the style of GRDB's `ResultCode`): each kind
  /// carries the reference server's `type` string, which goes on the wire unchanged.
  ///
  /// The set is open: a transaction error from InstantCore keeps whatever reference type it has
  /// (`record-not-unique`, `permission-denied`, …) through ``init(wireType:)``.
  struct Kind: Hashable, Sendable, CustomStringConvertible {
    /// The reference's `type` string; `nil` for server faults, which the reference sends without one.
    let wireType: String?

    init(wireType: String?) {
      self.wireType = wireType
    }

    /// `400` for every typed failure, `500` for a server fault.
    var status: Int { wireType == nil ? 500 : 400 }

    var description: String { wireType ?? "server-fault" }

    /// The input is well-formed but not acceptable (`hint.data-type` says which part).
    static let validationFailed = Kind(wireType: "validation-failed")
    /// A required parameter is absent.
    static let paramMissing = Kind(wireType: "param-missing")
    /// A parameter has the wrong type or shape (also: unknown ops, malformed JSON).
    static let paramMalformed = Kind(wireType: "param-malformed")
    /// The record a request names does not exist (`hint.record-type` says which).
    static let recordNotFound = Kind(wireType: "record-not-found")
    /// The server failed (storage, loading an app); the reference sends these without a `type`.
    static let serverFault = Kind(wireType: nil)
  }
}
