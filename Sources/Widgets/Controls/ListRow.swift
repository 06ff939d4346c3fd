/// One row of a ``List``: a title, optional subtitle, and trailing value with detail.
public struct ListRow: Hashable, Sendable {
    public var identifier: String
    public var title: String
    public var subtitle: String?
    /// Right-aligned, in the monospaced amount style.
    public var trailing: String?
    public var badge: Badge?
    /// A button at the row's trailing edge ("Acknowledge" on a rejected
    /// transaction); it is its own touch target inside the row.
    public var action: Button?

    public init(identifier: String, title: String, subtitle: String? = nil, trailing: String? = nil, badge: Badge? = nil,
                action: Button? = nil) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.trailing = trailing
        self.badge = badge
        self.action = action
    }
}
