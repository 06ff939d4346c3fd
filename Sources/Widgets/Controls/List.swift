import Graphics

/// A vertically scrolling list of tappable rows, optionally under a header
/// that scrolls with them (an account's details above its activity).
///
/// The scroll offset lives in ``InteractionState/scrollOffsets`` under the
/// list's ``identifier``; ``TouchTracker`` changes it while a finger drags.
/// Rows outside the viewport are still laid out (QA can find them) but are
/// clipped away when drawn. The accessibility value is the row count.
///
/// A row never cuts its text: the title and subtitle wrap, and an amount
/// too wide to sit beside the title moves under it, so a row grows taller
/// at large text instead of losing an IBAN's last digits.
public struct List: Widget {
    public var identifier: String
    public var label: String
    public var header: (any Widget)?
    public var rows: [ListRow]

    public init(identifier: String, label: String, header: (any Widget)? = nil, rows: [ListRow]) {
        self.identifier = identifier
        self.label = label
        self.header = header
        self.rows = rows
    }

    /// The height of the shortest row at `width`: a list is never lower than one row.
    public func rowHeight(_ context: LayoutContext, width: Int) -> Int {
        rows.map { RowPlan(row: $0, width: width, context).height }.min() ?? RowPlan.minimumHeight(context)
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        Size(width: available.width, height: min(available.height, contentHeight(width: available.width, context)))
    }

    /// One row high (the header's minimum when there is one): the rest
    /// scrolls. As wide as the header needs, since it cannot scroll sideways.
    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        let headerMinimum = header.map { $0.minimumSize(available, context) } ?? .zero
        let headerHeight = headerMinimum.height
        return Size(width: min(available.width, max(context.px(160), headerMinimum.width)),
                    height: rows.isEmpty ? headerHeight : min(available.height, rowHeight(context, width: available.width)))
    }

    public func flexibility(_ axis: Axis) -> Double { axis == .vertical ? 1 : 0 }

    private func contentHeight(width: Int, _ context: LayoutContext) -> Int {
        let headerHeight = header.map { $0.measure(Size(width: width, height: Int(Int32.max) / 4), context).height } ?? 0
        return headerHeight + rows.reduce(0) { $0 + RowPlan(row: $1, width: width, context).height }
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let plans = rows.map { RowPlan(row: $0, width: frame.width, context) }
        let headerHeight = header.map { $0.measure(Size(width: frame.width, height: Int(Int32.max) / 4), context).height } ?? 0
        let contentHeight = headerHeight + plans.reduce(0) { $0 + $1.height }
        let maxOffset = max(0, contentHeight - frame.height)
        let offset = min(maxOffset, max(0, context.state.scrollOffsets[identifier] ?? 0))
        var children: [LayoutNode] = []
        var y = frame.minY - offset
        if let header {
            children.append(header.layout(in: Rect(x: frame.minX, y: y, width: frame.width, height: headerHeight), context))
            y += headerHeight
        }
        for plan in plans {
            children.append(layoutRow(plan, in: Rect(x: frame.minX, y: y, width: frame.width, height: plan.height), context))
            y += plan.height
        }
        if contentHeight > frame.height {
            children.append(ScrollArea.indicator(in: frame, contentHeight: contentHeight, offset: offset, context))
        }
        return LayoutNode(frame: frame, role: .list, identifier: identifier, label: label,
                          value: String(rows.count),
                          interaction: .scroll(contentHeight: contentHeight),
                          paints: [.fill(frame, context.theme.surface, radius: 0),
                                   .stroke(frame, context.theme.separator, radius: 0, width: 1)],
                          clipsChildren: true, children: children)
    }

    private func layoutRow(_ plan: RowPlan, in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let row = plan.row
        let theme = context.theme
        var paints: [Paint] = []
        if context.state.pressed == row.identifier { paints.append(.fill(frame, theme.rowPressed, radius: 0)) }
        let pad = context.px(16)
        paints.append(.line(from: Point(x: frame.minX + pad, y: frame.maxY - 1), to: Point(x: frame.maxX - 1, y: frame.maxY - 1),
                            width: 1, theme.separator))
        let content = frame.insetBy(dx: pad, dy: context.px(8))
        var children: [LayoutNode] = []
        var y = content.minY + (content.height - plan.textHeight - plan.actionBelowHeight) / 2
        if let action = row.action {
            // The button keeps its full touch target: centred in the row's height beside the text,
            // or under the text, at the row's trailing edge, when it would take more than half the row.
            let actionFrame = plan.actionBelow
                ? Rect(x: content.maxX - plan.actionSize.width, y: y + plan.textHeight + context.px(8),
                       width: plan.actionSize.width, height: plan.actionSize.height)
                : Rect(x: content.maxX - plan.actionSize.width, y: frame.midY - plan.actionSize.height / 2,
                       width: plan.actionSize.width, height: min(plan.actionSize.height, frame.height - 2 * context.px(4)))
            children.append(action.layout(in: actionFrame, context))
        }
        let title = TextLines(lines: plan.titleLines, spec: context.fontSpec(.body), color: theme.primaryText, alignment: .leading)
        let titleFrame = Rect(x: content.minX, y: y, width: plan.textWidth, height: plan.titleLines.count * plan.titleLineHeight)
        paints += title.paints(in: titleFrame, context)
        if let trailing = row.trailing {
            let lines = TextLines(lines: [trailing], spec: context.fontSpec(.amount), color: theme.primaryText, alignment: .trailing)
            let trailingFrame = plan.trailingBelow
                ? Rect(x: content.minX, y: titleFrame.maxY, width: plan.textAreaWidth, height: plan.amountLineHeight)
                : Rect(x: content.minX + plan.textAreaWidth - plan.trailingWidth, y: content.minY,
                       width: plan.trailingWidth, height: content.height)
            paints += lines.paints(in: trailingFrame, context)
        }
        y = titleFrame.maxY + (plan.trailingBelow ? plan.amountLineHeight : 0)
        if plan.hasSecondLine {
            y += context.px(4)
            var x = content.minX
            if let badge = row.badge {
                let badgeFrame = Rect(x: x, y: y, width: plan.badgeSize.width, height: plan.badgeSize.height)
                children.append(badge.layout(in: badgeFrame, context))
                if plan.subtitleBesideBadge { x += plan.badgeSize.width + context.px(8) } else { y += plan.badgeSize.height }
            }
            if !plan.subtitleLines.isEmpty {
                let width = content.minX + plan.textWidth - x
                let subtitle = TextLines(lines: plan.subtitleLines, spec: context.fontSpec(.caption), color: theme.secondaryText,
                                         alignment: .leading)
                let height = plan.subtitleLines.count * plan.subtitleLineHeight
                let top = plan.subtitleBesideBadge && row.badge != nil ? y + (plan.badgeSize.height - min(plan.badgeSize.height, height)) / 2 : y
                paints += subtitle.paints(in: Rect(x: x, y: max(y, top), width: width, height: height), context)
            }
        }
        let label = [row.title, row.badge?.text, row.subtitle].compactMap { $0 }.joined(separator: ", ")
        return LayoutNode(frame: frame, role: .row, identifier: row.identifier, label: label, value: row.trailing,
                          interaction: .tap, paints: paints, children: children)
    }
}

/// Where everything in one row goes at one width, and so how tall it is.
private struct RowPlan {
    let row: ListRow
    let height: Int
    let textHeight: Int
    /// The width left of the action button (and of a trailing amount beside the title).
    let textAreaWidth: Int
    let textWidth: Int
    let titleLines: [String]
    let titleLineHeight: Int
    let trailingWidth: Int
    let trailingBelow: Bool
    let amountLineHeight: Int
    let hasSecondLine: Bool
    let badgeSize: Size
    let subtitleLines: [String]
    let subtitleLineHeight: Int
    let subtitleBesideBadge: Bool
    let actionSize: Size
    let actionBelow: Bool
    /// The room the action takes under the text when ``actionBelow``, gap included.
    let actionBelowHeight: Int

    static func minimumHeight(_ context: LayoutContext) -> Int { context.px(56) }

    init(row: ListRow, width: Int, _ context: LayoutContext) {
        self.row = row
        let pad = context.px(16)
        var area = max(0, width - 2 * pad)
        if let action = row.action {
            let size = action.measure(Size(width: area, height: Int(Int32.max) / 4), context)
            actionBelow = size.width > area / 2
            actionSize = Size(width: min(size.width, area), height: size.height)
            if !actionBelow { area = max(0, area - actionSize.width - pad) }
        } else {
            actionSize = .zero
            actionBelow = false
        }
        actionBelowHeight = actionBelow ? actionSize.height + context.px(8) : 0
        textAreaWidth = area
        let titleFont = context.font(.body)
        let captionFont = context.font(.caption)
        let amountFont = context.font(.amount)
        titleLineHeight = titleFont.lineHeight
        subtitleLineHeight = captionFont.lineHeight
        amountLineHeight = amountFont.lineHeight
        // An amount sits beside the title while it takes at most half the row; wider, it gets its own line.
        let amountWidth = row.trailing.map { amountFont.width(of: $0) } ?? 0
        trailingBelow = amountWidth > area / 2
        trailingWidth = trailingBelow ? area : amountWidth
        textWidth = max(1, trailingBelow || amountWidth == 0 ? area : area - amountWidth - pad)
        titleLines = titleFont.wrapped(row.title, toWidth: textWidth)
        hasSecondLine = row.subtitle != nil || row.badge != nil
        let textWidth = self.textWidth
        badgeSize = row.badge?.measure(Size(width: textWidth, height: Int(Int32.max) / 4), context) ?? .zero
        // The subtitle runs on beside the badge while a third of the line is left; otherwise under it.
        let beside = textWidth - (row.badge == nil ? 0 : badgeSize.width + context.px(8))
        subtitleBesideBadge = row.badge == nil || beside >= textWidth / 3
        let subtitleWidth = max(1, subtitleBesideBadge ? beside : textWidth)
        subtitleLines = row.subtitle.map { captionFont.wrapped($0, toWidth: subtitleWidth) } ?? []
        let subtitleHeight = subtitleLines.count * captionFont.lineHeight
        let second = !hasSecondLine ? 0
            : context.px(4) + (subtitleBesideBadge ? max(badgeSize.height, subtitleHeight) : badgeSize.height + subtitleHeight)
        textHeight = titleLines.count * titleFont.lineHeight + (trailingBelow ? amountFont.lineHeight : 0) + second
        height = max(Self.minimumHeight(context), textHeight + actionBelowHeight + 2 * context.px(10),
                     actionSize.height + 2 * context.px(4))
    }
}
