import Graphics

/// Gives its child a fixed width and/or height in dp, or a width of at
/// least so many dp that grows to the child's own (a button whose words
/// need more at large text).
public struct Frame: Widget {
    public var width: Double?
    public var height: Double?
    /// With no fixed `width`: at least this wide, wider as the child needs.
    public var minWidth: Double?
    public var child: any Widget

    public init(width: Double? = nil, height: Double? = nil, _ child: any Widget) {
        self.width = width
        self.height = height
        self.child = child
    }

    public init(minWidth: Double, height: Double? = nil, _ child: any Widget) {
        self.minWidth = minWidth
        self.height = height
        self.child = child
    }

    /// The width it takes of `available`: fixed, at least `minWidth` and
    /// the child's natural width (up to what is available), or the child's.
    private func width(_ available: Size, _ context: LayoutContext, child natural: Int) -> Int {
        if let width { return context.px(width) }
        if let minWidth { return min(available.width, max(context.px(minWidth), natural)) }
        return natural
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let fixed = Size(width: width.map(context.px) ?? available.width, height: height.map(context.px) ?? available.height)
        let natural = child.measure(fixed, context)
        return Size(width: width(available, context, child: natural.width), height: height.map(context.px) ?? natural.height)
    }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        let fixed = Size(width: width.map(context.px) ?? available.width, height: height.map(context.px) ?? available.height)
        let minimum = child.minimumSize(fixed, context)
        let natural = minWidth == nil ? minimum.width : child.measure(fixed, context).width
        return Size(width: width(available, context, child: natural), height: height.map(context.px) ?? minimum.height)
    }

    public func flexibility(_ axis: Axis) -> Double {
        switch axis {
        case .horizontal: return width == nil && minWidth == nil ? child.flexibility(axis) : 0
        case .vertical: return height == nil ? child.flexibility(axis) : 0
        }
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        child.layout(in: frame, context)
    }
}
