import Graphics

/// Read-only text: one line truncated with an ellipsis, or wrapped to `maxLines`.
public struct Label: Widget {
    public var text: String
    public var style: TextStyle
    public var color: ThemeColor
    public var alignment: TextAlignment
    public var maxLines: Int
    public var identifier: String?

    public init(_ text: String, style: TextStyle = .body, color: ThemeColor = .primaryText,
                alignment: TextAlignment = .leading, maxLines: Int = 1, identifier: String? = nil) {
        self.text = text
        self.style = style
        self.color = color
        self.alignment = alignment
        self.maxLines = max(1, maxLines)
        self.identifier = identifier
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let font = context.font(style)
        let lines = self.lines(width: available.width, font)
        let width = lines.map { font.width(of: $0) }.max() ?? 0
        return Size(width: min(width, available.width), height: lines.count * font.lineHeight)
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let spec = context.fontSpec(style)
        let text = TextLines(lines: lines(width: frame.width, context.font(spec)), spec: spec,
                             color: context.theme.color(color), alignment: alignment)
        return LayoutNode(frame: frame, role: .text, identifier: identifier, label: self.text,
                          paints: text.paints(in: frame, context))
    }

    private func lines(width: Int, _ font: Font) -> [String] {
        maxLines == 1 ? [font.truncated(text, toWidth: width)] : font.wrapped(text, toWidth: width, maxLines: maxLines)
    }
}
