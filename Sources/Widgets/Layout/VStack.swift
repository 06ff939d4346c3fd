import Graphics

/// Lays out its children top to bottom, with optional padding and background.
///
/// Children with a Widget/flexibility(_:) share what is left after the
/// fixed children; see Spacer and Flexible.
public struct VStack: StackWidget {
    public var spacing: Double
    public var alignment: CrossAlignment
    public var padding: Insets
    public var background: ThemeColor?
    public var cornerRadius: Double
    public var identifier: String?
    public var children: [any Widget]

    /// - Parameters:
    ///   - spacing: Gap between children in dp.
    ///   - alignment: Placement across the stack for children that do not fill it.
    ///   - padding: Space between the stack's edge and its children, in dp.
    ///   - background: A colour role to fill the stack's frame with.
    ///   - cornerRadius: Rounding of the background, in dp.
    ///   - identifier: An id for QA to find this group.
    ///   - children: The widgets, in order.
    public init(spacing: Double = 8, alignment: CrossAlignment = .fill, padding: Insets = .zero,
                background: ThemeColor? = nil, cornerRadius: Double = 0, identifier: String? = nil,
                _ children: [any Widget]) {
        self.spacing = spacing
        self.alignment = alignment
        self.padding = padding
        self.background = background
        self.cornerRadius = cornerRadius
        self.identifier = identifier
        self.children = children
    }

    public var axis: Axis { .vertical }
}
