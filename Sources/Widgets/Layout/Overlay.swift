import Graphics

/// Lays `top` over `base` in the same frame: controls and text floating
/// over an area that must fill the display (the touch test and calibration
/// draw at display positions). `top` is hit-tested first; leave it without
/// a background so `base` shows through.
public struct Overlay: Widget {
    public var base: any Widget
    public var top: any Widget

    public init(_ base: any Widget, _ top: any Widget) {
        self.base = base
        self.top = top
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let a = base.measure(available, context), b = top.measure(available, context)
        return Size(width: max(a.width, b.width), height: max(a.height, b.height))
    }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        let a = base.minimumSize(available, context), b = top.minimumSize(available, context)
        return Size(width: max(a.width, b.width), height: max(a.height, b.height))
    }

    public func flexibility(_ axis: Axis) -> Double { max(base.flexibility(axis), top.flexibility(axis)) }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        LayoutNode(frame: frame, role: .group, children: [base.layout(in: frame, context), top.layout(in: frame, context)])
    }
}
