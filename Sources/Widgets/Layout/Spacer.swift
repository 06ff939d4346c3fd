import Graphics

/// Empty space that takes a stack's spare room, at least `minLength` dp.
public struct Spacer: Widget {
    public var minLength: Double

    public init(minLength: Double = 0) { self.minLength = minLength }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        Size(width: context.px(minLength), height: context.px(minLength))
    }

    public func flexibility(_ axis: Axis) -> Double { 1 }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        LayoutNode(frame: frame, role: .spacer)
    }
}
