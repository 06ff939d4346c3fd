import Graphics

/// A small pill with a status word ("Queued", "Confirmed", "Offline").
public struct Badge: Widget, Hashable {
    public var text: String
    public var tone: BadgeTone
    public var identifier: String?
    /// The spoken name, when it should say more than the visible word
    /// ("Connection: offline, transactions are queued" for "Offline").
    public var accessibilityLabel: String?

    public init(_ text: String, tone: BadgeTone = .neutral, identifier: String? = nil, accessibilityLabel: String? = nil) {
        self.text = text
        self.tone = tone
        self.identifier = identifier
        self.accessibilityLabel = accessibilityLabel
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let font = context.font(.caption)
        return Size(width: min(available.width, font.width(of: text) + 2 * context.px(10)),
                    height: font.lineHeight + 2 * context.px(3))
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let theme = context.theme
        let background: Color
        switch tone {
        case .neutral: background = theme.neutral
        case .success: background = theme.success
        case .warning: background = theme.warning
        case .danger: background = theme.danger
        }
        let inset = frame.insetBy(dx: context.px(8), dy: 0)
        let text = TextLines.single(text, style: .caption, color: theme.onBadge, alignment: .center,
                                    width: inset.width, context)
        return LayoutNode(frame: frame, role: .badge, identifier: identifier, label: accessibilityLabel ?? self.text,
                          paints: [.fill(frame, background, radius: frame.height / 2)] + text.paints(in: inset, context),
                          isTruncated: text.isCut(in: inset, context))
    }
}
