import Graphics

/// What VStack and HStack share: the same stored settings laid out by
/// ``StackLayout`` along their own axis.
public protocol StackWidget: Widget {
    var axis: Axis { get }
    var spacing: Double { get }
    var alignment: CrossAlignment { get }
    var padding: Insets { get }
    var background: ThemeColor? { get }
    var cornerRadius: Double { get }
    var identifier: String? { get }
    var children: [any Widget] { get }
}

extension StackWidget {
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
