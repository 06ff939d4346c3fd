import Graphics

/// Content that scrolls vertically when the frame is lower than it is: the
/// way large text gets room without cutting what must stay whole.
///
/// Like ``List``, the offset lives in ``InteractionState/scrollOffsets``
/// under ``identifier`` and ``TouchTracker`` drags it; the content is
/// clipped to the frame. When everything fits nothing moves.
public struct ScrollArea: Widget {
    public var identifier: String
    /// The spoken name of the area ("Transaction details").
    public var label: String
    public var content: any Widget

    public init(identifier: String, label: String, _ content: any Widget) {
        self.identifier = identifier
        self.label = label
        self.content = content
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let natural = contentSize(width: available.width, context)
        return Size(width: natural.width, height: min(natural.height, available.height))
    }

    /// A touch target high: the rest scrolls.
    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        let natural = content.minimumSize(available, context)
        return Size(width: natural.width, height: min(natural.height, context.minimumTouchPixels))
    }

    public func flexibility(_ axis: Axis) -> Double { axis == .vertical ? 1 : content.flexibility(axis) }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let contentHeight = max(frame.height, contentSize(width: frame.width, context).height)
        let offset = min(contentHeight - frame.height, max(0, context.state.scrollOffsets[identifier] ?? 0))
        let child = content.layout(in: Rect(x: frame.minX, y: frame.minY - offset, width: frame.width, height: contentHeight), context)
        guard contentHeight > frame.height else {
            return LayoutNode(frame: frame, role: .group, identifier: identifier, label: label, clipsChildren: true, children: [child])
        }
        return LayoutNode(frame: frame, role: .group, identifier: identifier, label: label,
                          interaction: .scroll(contentHeight: contentHeight), clipsChildren: true,
                          children: [child, Self.indicator(in: frame, contentHeight: contentHeight, offset: offset, context)],
                          scrolling: Scrolling(Scrolled(area: self, frame: frame, direction: context.direction)))
    }

    /// A scroll area as laid out, to lay it out again alone when only its offset changed.
    private struct Scrolled: ScrollingContent {
        let area: ScrollArea
        let frame: Rect
        let direction: LayoutDirection

        var scrollIdentifier: String { area.identifier }

        func relayout(_ context: LayoutContext) -> LayoutNode {
            var context = context
            if context.direction != direction { context.direction = direction }
            return area.layout(in: frame, context)
        }

        func allChildren(of node: LayoutNode) -> [LayoutNode] { node.children }

        /// The children say what the content made; the area itself is its place.
        func isSame(as other: any ScrollingContent) -> Bool {
            guard let other = other as? Scrolled else { return false }
            return area.identifier == other.area.identifier && frame == other.frame && direction == other.direction
        }
    }

    /// A thin bar at the trailing edge (the right, or the left right to
    /// left): how much there is, and where the view is in it.
    static func indicator(in frame: Rect, contentHeight: Int, offset: Int, _ context: LayoutContext) -> LayoutNode {
        let width = max(3, context.px(4))
        let length = max(context.px(24), frame.height * frame.height / contentHeight)
        let travel = frame.height - length
        let y = frame.minY + (contentHeight > frame.height ? travel * offset / (contentHeight - frame.height) : 0)
        let bar = context.placed(Rect(x: frame.maxX - width - context.px(2), y: y, width: width, height: length), in: frame)
        return LayoutNode(frame: bar, role: .spacer, paints: [.fill(bar, context.theme.secondaryText, radius: width / 2)])
    }

    /// The content's height at `width` when nothing limits it.
    private func contentSize(width: Int, _ context: LayoutContext) -> Size {
        content.measure(Size(width: width, height: Int(Int32.max) / 4), context)
    }
}
