/// Padding around content, in dp. Leading is the left edge in a
/// left-to-right layout and the right edge in a right-to-left one.
public struct Insets: Hashable, Sendable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double

    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// The same padding on every edge.
    public static func all(_ value: Double) -> Insets { Insets(top: value, leading: value, bottom: value, trailing: value) }

    /// `horizontal` left and right, `vertical` top and bottom.
    public static func symmetric(horizontal: Double = 0, vertical: Double = 0) -> Insets {
        Insets(top: vertical, leading: horizontal, bottom: vertical, trailing: horizontal)
    }

    public static let zero = Insets()
}
