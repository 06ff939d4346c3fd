import Graphics

/// Lays out its child in one direction whatever the language: a row
/// that means the same in Arabic as in English, such as digits in groups
/// or a left-to-right sequence of steps. Everything else follows
/// ``LayoutContext/direction`` and mirrors right to left.
///
///     FixedDirection(.leftToRight, HStack([Label("1"), Label("2"), Label("3")]))
public struct FixedDirection: Widget {
    public var direction: LayoutDirection
    public var child: any Widget

    public init(_ direction: LayoutDirection, _ child: any Widget) {
        self.direction = direction
        self.child = child
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size { child.measure(available, directed(context)) }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size { child.minimumSize(available, directed(context)) }

    public func flexibility(_ axis: Axis) -> Double { child.flexibility(axis) }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode { child.layout(in: frame, directed(context)) }

    private func directed(_ context: LayoutContext) -> LayoutContext {
        var context = context
        context.direction = direction
        return context
    }
}
