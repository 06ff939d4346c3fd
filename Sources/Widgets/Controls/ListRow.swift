/// One row of a ``List``: a title, optional subtitle, and trailing value with detail.
public struct ListRow: Hashable, Sendable {
    public var identifier: String
    public var title: String
    public var subtitle: String?
    /// Right-aligned, in the monospaced amount style.
    public var trailing: String?
    public var badge: Badge?

    public init(identifier: String, title: String, subtitle: String? = nil, trailing: String? = nil, badge: Badge? = nil) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.trailing = trailing
        self.badge = badge
    }
}
