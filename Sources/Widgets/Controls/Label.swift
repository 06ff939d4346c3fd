import Graphics

/// Read-only text: one line truncated with an ellipsis, or wrapped to `maxLines`.
public struct Label: Widget {
    public var text: String
    public var style: TextStyle
    public var color: ThemeColor
    public var alignment: TextAlignment
    public var maxLines: Int
    public var identifier: String?
    /// False for text that must never be cut, such as amounts: the stack
    /// squeezes its neighbours instead.
    public var canTruncate: Bool

    public init(_ text: String, style: TextStyle = .body, color: ThemeColor = .primaryText,
                alignment: TextAlignment = .leading, maxLines: Int = 1, canTruncate: Bool = true,
                identifier: String? = nil) {
        self.canTruncate = canTruncate
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

    /// One line; as narrow as a letter and an ellipsis unless ``canTruncate`` is false.
    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        let natural = measure(available, context)
        let font = context.font(style)
        let width = canTruncate ? min(natural.width, font.width(of: text.prefix(1) + Font.ellipsis)) : natural.width
        return Size(width: width, height: min(natural.height, font.lineHeight))
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
