import Graphics

/// A vertically scrolling list of tappable rows.
///
/// The scroll offset lives in ``InteractionState/scrollOffsets`` under the
/// list's ``identifier``; ``TouchTracker`` changes it while a finger drags.
/// Rows outside the viewport are still laid out (QA can find them) but are
/// clipped away when drawn. The accessibility value is the row count.
public struct List: Widget {
    public var identifier: String
    public var label: String
    public var rows: [ListRow]

    public init(identifier: String, label: String, rows: [ListRow]) {
        self.identifier = identifier
        self.label = label
        self.rows = rows
    }

    /// Height of one row in pixels.
    public func rowHeight(_ context: LayoutContext) -> Int {
        let title = context.font(.body).lineHeight
        let detail = context.font(.caption).lineHeight
        let hasSecondLine = rows.contains { $0.subtitle != nil || $0.badge != nil }
        return max(context.px(56), title + (hasSecondLine ? detail + context.px(4) : 0) + 2 * context.px(10))
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        Size(width: available.width, height: min(available.height, rowHeight(context) * rows.count))
    }

    /// One row high: the rest scrolls.
    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        Size(width: min(available.width, context.px(160)), height: rows.isEmpty ? 0 : rowHeight(context))
    }

    public func flexibility(_ axis: Axis) -> Double { axis == .vertical ? 1 : 0 }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let height = rowHeight(context)
        let contentHeight = height * rows.count
        let maxOffset = max(0, contentHeight - frame.height)
        let offset = min(maxOffset, max(0, context.state.scrollOffsets[identifier] ?? 0))
        let children = rows.enumerated().map { index, row in
            layoutRow(row, in: Rect(x: frame.minX, y: frame.minY - offset + index * height, width: frame.width, height: height),
                      context)
        }
        return LayoutNode(frame: frame, role: .list, identifier: identifier, label: label,
                          value: String(rows.count),
                          interaction: .scroll(contentHeight: contentHeight),
                          paints: [.fill(frame, context.theme.surface, radius: 0),
                                   .stroke(frame, context.theme.separator, radius: 0, width: 1)],
                          clipsChildren: true, children: children)
    }

    private func layoutRow(_ row: ListRow, in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let theme = context.theme
        var paints: [Paint] = []
        if context.state.pressed == row.identifier { paints.append(.fill(frame, theme.rowPressed, radius: 0)) }
        let pad = context.px(16)
        paints.append(.line(from: Point(x: frame.minX + pad, y: frame.maxY - 1), to: Point(x: frame.maxX - 1, y: frame.maxY - 1),
                            width: 1, theme.separator))
        var content = frame.insetBy(dx: pad, dy: context.px(8))
        var children: [LayoutNode] = []
        if let action = row.action {
            // The button keeps its full touch target, centred in the row's height.
            let size = action.measure(content.size, context)
            let width = min(size.width, content.width / 2)
            let height = min(size.height, frame.height - 2 * context.px(4))
            let actionFrame = Rect(x: content.maxX - width, y: frame.midY - height / 2, width: width, height: height)
            children.append(action.layout(in: actionFrame, context))
            content = Rect(x: content.minX, y: content.minY, width: max(0, content.width - width - pad), height: content.height)
        }
        let amountSpec = context.fontSpec(.amount)
        let amountFont = context.font(amountSpec)
        let trailingWidth = min(content.width / 2, row.trailing.map { amountFont.width(of: $0) } ?? 0)
        let textWidth = content.width - trailingWidth - (trailingWidth > 0 ? pad : 0)
        let hasSecondLine = row.subtitle != nil || row.badge != nil
        let titleFont = context.font(.body)
        let detailFont = context.font(.caption)
        let stackHeight = titleFont.lineHeight + (hasSecondLine ? detailFont.lineHeight + context.px(4) : 0)
        let top = content.minY + (content.height - stackHeight) / 2
        let titleFrame = Rect(x: content.minX, y: top, width: textWidth, height: titleFont.lineHeight)
        paints += TextLines.single(row.title, style: .body, color: theme.primaryText, width: textWidth, context)
            .paints(in: titleFrame, context)
        if hasSecondLine {
            var x = content.minX
            let lineFrame = Rect(x: x, y: titleFrame.maxY + context.px(4), width: textWidth, height: detailFont.lineHeight)
            if let badge = row.badge {
                let size = badge.measure(lineFrame.size, context)
                let badgeFrame = Rect(x: x, y: lineFrame.midY - size.height / 2, width: size.width, height: size.height)
                children.append(badge.layout(in: badgeFrame, context))
                x += size.width + context.px(8)
            }
            if let subtitle = row.subtitle {
                let subtitleFrame = Rect(x: x, y: lineFrame.minY, width: lineFrame.maxX - x, height: lineFrame.height)
                paints += TextLines.single(subtitle, style: .caption, color: theme.secondaryText,
                                           width: subtitleFrame.width, context).paints(in: subtitleFrame, context)
            }
        }
        if let trailing = row.trailing {
            let trailingFrame = Rect(x: content.maxX - trailingWidth, y: content.minY, width: trailingWidth, height: content.height)
            paints += TextLines.single(trailing, style: .amount, color: theme.primaryText, alignment: .trailing,
                                       width: trailingWidth, context).paints(in: trailingFrame, context)
        }
        let label = [row.title, row.badge?.text, row.subtitle].compactMap { $0 }.joined(separator: ", ")
        return LayoutNode(frame: frame, role: .row, identifier: row.identifier, label: label, value: row.trailing,
                          interaction: .tap, paints: paints, children: children)
    }
}
