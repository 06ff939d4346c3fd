import Graphics

/// Shows `content`, and over it, when `alert` is set, a dimming scrim with a
/// centred dialog that takes every touch.
public struct Modal: Widget {
    public var content: any Widget
    public var alert: Alert?

    public init(_ content: any Widget, alert: Alert?) {
        self.content = content
        self.alert = alert
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size { content.measure(available, context) }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size { content.minimumSize(available, context) }

    public func flexibility(_ axis: Axis) -> Double { content.flexibility(axis) }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let base = content.layout(in: frame, context)
        guard let alert else { return base }
        let width = min(frame.width - 2 * context.px(24), context.px(480))
        // Side by side while every title fits; stacked when large text would truncate one.
        let sideBySide = alert.actions.reduce(0) { $0 + $1.measure(frame.size, context).width }
            + context.px(12) * (alert.actions.count - 1) <= width - 2 * context.px(24)
        let actions: any Widget = sideBySide
            ? HStack(spacing: 12, alert.actions.map { Flexible(1, $0) })
            : VStack(spacing: 8, alert.actions.reversed())
        let dialog = VStack(spacing: 12, padding: .all(24), [
            Label(alert.title, style: .title, maxLines: 2),
            Label(alert.message, style: .body, color: .secondaryText, maxLines: 5),
            Spacer(minLength: 4),
            actions,
        ])
        let height = min(frame.height - 2 * context.px(16), dialog.measure(Size(width: width, height: frame.height), context).height)
        let dialogFrame = Rect(x: frame.minX + (frame.width - width) / 2, y: frame.minY + (frame.height - height) / 2,
                               width: width, height: height)
        let theme = context.theme
        let radius = context.px(12)
        var dialogNode = dialog.layout(in: dialogFrame, context)
        dialogNode.role = .alert
        dialogNode.identifier = alert.identifier
        dialogNode.label = alert.title
        dialogNode.value = alert.message
        dialogNode.paints = [
            .fill(dialogFrame, theme.surface, radius: radius),
            .stroke(dialogFrame, theme.border, radius: radius, width: max(1, context.px(theme.borderWidth))),
        ]
        let scrim = LayoutNode(frame: frame, role: .scrim, interaction: .blocker,
                               paints: [.fill(frame, theme.scrim, radius: 0)], children: [dialogNode])
        return LayoutNode(frame: frame, role: .group, children: [base, scrim])
    }
}
