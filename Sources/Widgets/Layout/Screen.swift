import Graphics

/// The root of a screen: paints the theme background over the whole display
/// so any damaged rect starts from a clean slate.
public struct Screen: Widget {
    public var identifier: String
    public var title: String?
    public var content: any Widget

    public init(identifier: String, title: String? = nil, _ content: any Widget) {
        self.identifier = identifier
        self.title = title
        self.content = content
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size { available }

    public func flexibility(_ axis: Axis) -> Double { 1 }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        LayoutNode(frame: frame, role: .screen, identifier: identifier, label: title,
                   paints: [.fill(frame, context.theme.background, radius: 0)],
                   children: [content.layout(in: frame, context)])
    }
}
