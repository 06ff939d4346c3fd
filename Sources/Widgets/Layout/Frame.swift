import Graphics

/// Gives its child a fixed width and/or height in dp.
public struct Frame: Widget {
    public var width: Double?
    public var height: Double?
    public var child: any Widget

    public init(width: Double? = nil, height: Double? = nil, _ child: any Widget) {
        self.width = width
        self.height = height
        self.child = child
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let fixed = Size(width: width.map(context.px) ?? available.width, height: height.map(context.px) ?? available.height)
        let natural = child.measure(fixed, context)
        return Size(width: width.map(context.px) ?? natural.width, height: height.map(context.px) ?? natural.height)
    }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        let fixed = Size(width: width.map(context.px) ?? available.width, height: height.map(context.px) ?? available.height)
        let minimum = child.minimumSize(fixed, context)
        return Size(width: width.map(context.px) ?? minimum.width, height: height.map(context.px) ?? minimum.height)
    }

    public func flexibility(_ axis: Axis) -> Double {
        switch axis {
        case .horizontal: return width == nil ? child.flexibility(axis) : 0
        case .vertical: return height == nil ? child.flexibility(axis) : 0
        }
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        child.layout(in: frame, context)
    }
}
