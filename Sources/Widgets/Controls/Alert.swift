/// A message that needs an answer before the operator can go on
/// (a rejected transaction, "Sign out?"), shown by ``Modal``.
public struct Alert: Sendable {
    public var identifier: String
    public var title: String
    public var message: String
    /// Shown side by side, each taking equal width.
    public var actions: [Button]

    public init(identifier: String, title: String, message: String, actions: [Button]) {
        self.identifier = identifier
        self.title = title
        self.message = message
        self.actions = actions
    }
}
