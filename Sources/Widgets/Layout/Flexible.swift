import Graphics

/// Makes its child take spare stack space with a given weight (a list 3, a keypad 2).
public struct Flexible: Widget {
    public var weight: Double
    public var child: any Widget

    public init(_ weight: Double = 1, _ child: any Widget) {
        self.weight = weight
        self.child = child
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size { child.measure(available, context) }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size { child.minimumSize(available, context) }

    public func flexibility(_ axis: Axis) -> Double { weight }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode { child.layout(in: frame, context) }
}
