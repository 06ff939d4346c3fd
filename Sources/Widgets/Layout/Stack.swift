import Graphics

/// Lays out its children in reading order across: left to right, or right
/// to left when ``LayoutContext/direction`` says so (wrap it in
/// ``FixedDirection`` for a row that must not mirror).
public typealias HStack = Stack<LeftToRight>
/// Lays out its children top to bottom, with optional padding and background.
public typealias VStack = Stack<TopToBottom>

/// The direction a ``Stack`` runs in, as a type, so that `HStack` and
/// `VStack` are one implementation with two names.
public protocol StackDirection: Sendable {
    static var axis: Axis { get }
}

public enum LeftToRight: StackDirection {
    public static var axis: Axis { .horizontal }
}

public enum TopToBottom: StackDirection {
    public static var axis: Axis { .vertical }
}

/// Children in a row or a column (``HStack``, ``VStack``), laid out by
/// ``StackLayout``.
///
/// Children with a Widget/flexibility(_:) share what is left after the
/// fixed children; see Spacer and Flexible.
public struct Stack<Direction: StackDirection>: Widget {
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

    public var axis: Axis { Direction.axis }

    var stack: StackLayout {
        StackLayout(axis: axis, spacing: spacing, alignment: alignment, padding: padding, children: children)
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size { stack.measure(available, context) }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size { stack.minimumSize(available, context) }

    public func flexibility(_ axis: Axis) -> Double { stack.flexibility(axis) }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let paints: [Paint] = background.map {
            [.fill(frame, context.theme.color($0), radius: context.px(cornerRadius))]
        } ?? []
        return LayoutNode(frame: frame, role: .group, identifier: identifier, paints: paints,
                          children: stack.layoutChildren(in: frame, context))
    }
}
