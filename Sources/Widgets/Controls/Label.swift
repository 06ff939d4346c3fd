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
        if maxLines == 1 {
            // What lines(width:) and the width of its one line give, with one look-up when the text fits.
            let whole = font.width(of: text)
            let width = whole <= available.width ? whole : font.width(of: font.truncated(text, toWidth: available.width))
            return Size(width: min(width, available.width), height: font.lineHeight)
        }
        let lines = self.lines(width: available.width, font)
        let width = lines.map { font.width(of: $0) }.max() ?? 0
        return Size(width: min(width, available.width), height: lines.count * font.lineHeight)
    }

    /// One line, as narrow as a letter and an ellipsis; all of it, wrapped
    /// to `available`, when ``canTruncate`` is false.
    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        let natural = measure(available, context)
        let font = context.font(style)
        if !canTruncate { return maxLines > 1 ? narrowestWhole(available, font) ?? natural : natural }
        let width = canTruncate ? min(natural.width, font.width(of: String(text.prefix(1)) + Font.ellipsis)) : natural.width
        return Size(width: width, height: min(natural.height, font.lineHeight))
    }

    /// The narrowest box that still holds all of the text within
    /// ``maxLines``, breaking only at spaces (an IBAN between its groups);
    /// nil when only the natural width does.
    private func narrowestWhole(_ available: Size, _ font: Font) -> Size? {
        let widest = text.split(separator: " ").map { font.width(of: $0) }.max() ?? 0
        guard widest < available.width else { return nil }
        var width = widest
        var lines = font.wrapped(text, toWidth: width)
        // Widen a word at a time until the lines are few enough; at most one pass per word.
        while lines.count > maxLines && width < available.width {
            width = min(available.width, width + max(1, widest / 2))
            lines = font.wrapped(text, toWidth: width)
        }
        guard lines.count <= maxLines else { return nil }
        return Size(width: lines.map { font.width(of: $0) }.max() ?? 0, height: lines.count * font.lineHeight)
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let spec = context.fontSpec(style)
        let font = context.font(spec)
        let lines = lines(width: frame.width, font)
        let text = TextLines(lines: lines, spec: spec, color: context.theme.color(color), alignment: alignment,
                             isCut: isCut(lines, width: frame.width, font))
        return LayoutNode(frame: frame, role: .text, identifier: identifier, label: self.text,
                          paints: text.paints(in: frame, context), isTruncated: text.isCut(in: frame, context))
    }

    /// Text that fits is its own line (as ``Font/truncated(_:toWidth:)`` would say): its
    /// width is a cheaper question than a truncation at a width.
    private func lines(width: Int, _ font: Font) -> [String] {
        guard maxLines == 1 else { return font.wrapped(text, toWidth: width, maxLines: maxLines) }
        return [font.width(of: text) <= width ? text : font.truncated(text, toWidth: width)]
    }

    /// Whether breaking to `lines` lost text: a single line differs from the
    /// text, or the full wrap needs more than ``maxLines``.
    private func isCut(_ lines: [String], width: Int, _ font: Font) -> Bool {
        if maxLines == 1 { return lines.first != text }
        return lines.count == maxLines && font.wrapped(text, toWidth: width).count > maxLines
    }
}
