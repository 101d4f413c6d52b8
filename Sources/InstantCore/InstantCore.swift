/// InstantCore: InstantDB's data engine in Swift (JSON, attrs, triple store, InstaQL, InstaML).
public enum InstantCore {}
