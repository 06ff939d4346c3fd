import Graphics

/// A vertically scrolling list of tappable rows, optionally under a header
/// that scrolls with them (an account's details above its activity).
///
/// The scroll offset lives in ``InteractionState/scrollOffsets`` under the
/// list's ``identifier``; ``TouchTracker`` changes it while a finger drags
/// or a fling runs, and ``InteractionState/scroll(_:to:)`` sends it to an end.
/// The accessibility value is the row count.
///
/// The list asks its rows by index (``ListRows``) and keeps their heights
/// as prefix sums in the context's ``RowHeightCache``, made again only when
/// the rows change: a row's text is wrapped to measure it once, not on
/// every frame. Only the rows that intersect the viewport, found by a
/// binary search, are built and laid out: they get their paints, badge and
/// action button. Every other row is left to the viewport's
/// ``ScrollingContent``, which makes it on demand for accessibility and
/// look-ups (its identifier, label, value and frame, outside the clip, so
/// QA sees it as not visible; nothing to paint, no children). A scroll
/// lays out the viewport alone (``ScrollingContent/relayout(_:)``).
///
/// A row never cuts its text: the title and subtitle wrap, and an amount
/// too wide to sit beside the title moves under it, so a row grows taller
/// at large text instead of losing an IBAN's last digits.
public struct List: Widget {
    public var identifier: String
    public var label: String
    public var header: (any Widget)?
    public var rows: ListRows
    /// Shown under the rows only while they are taller than the list (jumps
    /// to the first and the last row); a short list has no use for them.
    public var overflowControls: (any Widget)?

    public init(identifier: String, label: String, header: (any Widget)? = nil, rows: ListRows, overflowControls: (any Widget)? = nil) {
        self.identifier = identifier
        self.label = label
        self.header = header
        self.rows = rows
        self.overflowControls = overflowControls
    }

    public init(identifier: String, label: String, header: (any Widget)? = nil, rows: [ListRow], overflowControls: (any Widget)? = nil) {
        self.init(identifier: identifier, label: label, header: header, rows: ListRows(rows), overflowControls: overflowControls)
    }

    /// The height of the first row at `width` (the one an unscrolled list
    /// shows first): a list is never lower than one row.
    public func rowHeight(_ context: LayoutContext, width: Int) -> Int {
        rows.isEmpty ? RowPlan.minimumHeight(context) : rowOffsets(width: width, context)[1]
    }

    /// As tall as the header and rows, up to `available`. The rows' heights
    /// are the ones layout keeps: measured once per width, not per call.
    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let height = headerHeight(width: available.width, context) + rowOffsets(width: available.width, context)[rows.count]
        return Size(width: available.width, height: min(available.height, height))
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

    private func headerHeight(width: Int, _ context: LayoutContext) -> Int {
        header.map { $0.measure(Size(width: width, height: Int(Int32.max) / 4), context).height } ?? 0
    }

    private func rowOffsets(width: Int, _ context: LayoutContext) -> [Int] {
        context.rowHeights.offsets(of: rows, list: identifier, width: width, context)
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let offsets = rowOffsets(width: frame.width, context)
        let headerHeight = headerHeight(width: frame.width, context)
        let contentHeight = headerHeight + offsets[rows.count]
        guard contentHeight > frame.height, let controls = overflowControls else {
            return layoutViewport(offsets, headerHeight: headerHeight, contentHeight: contentHeight, in: frame, context)
        }
        let gap = context.px(8)
        let barHeight = controls.measure(Size(width: frame.width, height: frame.height), context).height
        let listHeight = frame.height - barHeight - gap
        // Too low for the controls and a row: the rows matter more.
        guard listHeight >= (rows.isEmpty ? 0 : offsets[1]) else {
            return layoutViewport(offsets, headerHeight: headerHeight, contentHeight: contentHeight, in: frame, context)
        }
        let listFrame = Rect(x: frame.minX, y: frame.minY, width: frame.width, height: listHeight)
        let barFrame = Rect(x: frame.minX, y: listFrame.maxY + gap, width: frame.width, height: barHeight)
        return LayoutNode(frame: frame, role: .group, children: [
            layoutViewport(offsets, headerHeight: headerHeight, contentHeight: contentHeight, in: listFrame, context),
            controls.layout(in: barFrame, context),
        ])
    }

    fileprivate func layoutViewport(_ offsets: [Int], headerHeight: Int, contentHeight: Int, in frame: Rect,
                                    _ context: LayoutContext) -> LayoutNode {
        let maxOffset = max(0, contentHeight - frame.height)
        let offset = min(maxOffset, max(0, context.state.scrollOffsets[identifier] ?? 0))
        var children: [LayoutNode] = []
        let top = frame.minY - offset
        if let header {
            children.append(header.layout(in: Rect(x: frame.minX, y: top, width: frame.width, height: headerHeight), context))
        }
        let rowsTop = top + headerHeight
        // The first row that ends below the viewport's top; rows from there on are built while they start above its bottom.
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rowsTop + offsets[middle + 1] > frame.minY { high = middle } else { low = middle + 1 }
        }
        var shown = low..<low
        var index = low
        while index < rows.count, rowsTop + offsets[index] < frame.maxY {
            let rowFrame = Rect(x: frame.minX, y: rowsTop + offsets[index], width: frame.width, height: offsets[index + 1] - offsets[index])
            guard rowFrame.intersects(frame) else { break }
            let row = rows[index]
            children.append(layoutRow(RowPlan(row: row, width: frame.width, context), in: rowFrame, context))
            index += 1
            shown = shown.lowerBound..<index
        }
        if contentHeight > frame.height {
            children.append(ScrollArea.indicator(in: frame, contentHeight: contentHeight, offset: offset, context))
        }
        let viewport = Viewport(list: self, frame: frame, direction: context.direction, offsets: offsets, headerHeight: headerHeight,
                                contentHeight: contentHeight, offset: offset, shown: shown)
        return LayoutNode(frame: frame, role: .list, identifier: identifier, label: label,
                          value: String(rows.count),
                          interaction: .scroll(contentHeight: contentHeight),
                          paints: [.fill(frame, context.theme.surface, radius: 0),
                                   .stroke(frame, context.theme.separator, radius: 0, width: 1)],
                          clipsChildren: true, children: children, scrolling: Scrolling(viewport))
    }

    /// The part of a list that scrolls, as laid out: what it needs to be
    /// laid out again at another offset, and to make the rows it did not build.
    private struct Viewport: ScrollingContent {
        let list: List
        let frame: Rect
        let direction: LayoutDirection
        let offsets: [Int]
        let headerHeight: Int
        let contentHeight: Int
        /// The offset laid out, clamped to the content.
        let offset: Int
        /// The rows built, in view.
        let shown: Range<Int>

        var scrollIdentifier: String { list.identifier }

        func relayout(_ context: LayoutContext) -> LayoutNode {
            var context = context
            if context.direction != direction { context.direction = direction }
            return list.layoutViewport(offsets, headerHeight: headerHeight, contentHeight: contentHeight, in: frame, context)
        }

        func allChildren(of node: LayoutNode) -> [LayoutNode] {
            let built = node.children
            let headers = list.header == nil ? 0 : 1
            var children: [LayoutNode] = []
            children.reserveCapacity(built.count - shown.count + list.rows.count)
            children += built[0..<headers]
            let rowsTop = frame.minY - offset + headerHeight
            func unshown(_ index: Int) -> LayoutNode {
                let frame = Rect(x: frame.minX, y: rowsTop + offsets[index], width: frame.width, height: offsets[index + 1] - offsets[index])
                return List.unshownRow(list.rows[index], in: frame)
            }
            for index in 0..<shown.lowerBound { children.append(unshown(index)) }
            children += built[headers..<(headers + shown.count)]
            for index in shown.upperBound..<list.rows.count { children.append(unshown(index)) }
            children += built[(headers + shown.count)...]
            return children
        }

        func isSame(as other: any ScrollingContent) -> Bool {
            guard let other = other as? Viewport else { return false }
            return list.identifier == other.list.identifier && frame == other.frame && direction == other.direction
                && offset == other.offset && shown == other.shown && headerHeight == other.headerHeight
                && contentHeight == other.contentHeight && offsets == other.offsets && list.rows.isSame(as: other.list.rows)
        }
    }

    /// A row scrolled out of view: findable by QA, nothing to draw.
    fileprivate static func unshownRow(_ row: ListRow, in frame: Rect) -> LayoutNode {
        LayoutNode(frame: frame, role: .row, identifier: row.identifier, label: Self.label(row), value: row.trailing, interaction: .tap)
    }

    private static func label(_ row: ListRow) -> String {
        var label = row.title
        if let badge = row.badge?.text { label += ", " + badge }
        if let subtitle = row.subtitle { label += ", " + subtitle }
        return label
    }

    private func layoutRow(_ plan: RowPlan, in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let row = plan.row
        let theme = context.theme
        var paints: [Paint] = []
        let pad = context.px(16)
        // Parts are placed left to right and mirrored within the row when it reads right to left:
        // the title and badge on the right, the amount and the action on the left.
        paints.append(.line(from: Point(x: context.placed(x: frame.minX + pad, in: frame), y: frame.maxY - 1),
                            to: Point(x: context.placed(x: frame.maxX - 1, in: frame), y: frame.maxY - 1),
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
            children.append(action.layout(in: context.placed(actionFrame, in: frame), context))
        }
        let title = TextLines(lines: plan.titleLines, spec: context.fontSpec(.body), color: theme.primaryText, alignment: .leading)
        let titleFrame = Rect(x: content.minX, y: y, width: plan.textWidth, height: plan.titleLines.count * plan.titleLineHeight)
        paints += title.paints(in: context.placed(titleFrame, in: frame), context)
        if let trailing = row.trailing {
            let lines = TextLines(lines: [trailing], spec: context.fontSpec(.amount), color: theme.primaryText, alignment: .trailing)
            let trailingFrame = plan.trailingBelow
                ? Rect(x: content.minX, y: titleFrame.maxY, width: plan.textAreaWidth, height: plan.amountLineHeight)
                : Rect(x: content.minX + plan.textAreaWidth - plan.trailingWidth, y: content.minY,
                       width: plan.trailingWidth, height: content.height)
            paints += lines.paints(in: context.placed(trailingFrame, in: frame), context)
        }
        y = titleFrame.maxY + (plan.trailingBelow ? plan.amountLineHeight : 0)
        if plan.hasSecondLine {
            y += context.px(4)
            var x = content.minX
            if let badge = row.badge {
                let badgeFrame = Rect(x: x, y: y, width: plan.badgeSize.width, height: plan.badgeSize.height)
                children.append(badge.layout(in: context.placed(badgeFrame, in: frame), context))
                if plan.subtitleBesideBadge { x += plan.badgeSize.width + context.px(8) } else { y += plan.badgeSize.height }
            }
            if !plan.subtitleLines.isEmpty {
                let width = content.minX + plan.textWidth - x
                let subtitle = TextLines(lines: plan.subtitleLines, spec: context.fontSpec(.caption), color: theme.secondaryText,
                                         alignment: .leading)
                let height = plan.subtitleLines.count * plan.subtitleLineHeight
                let top = plan.subtitleBesideBadge && row.badge != nil ? y + (plan.badgeSize.height - min(plan.badgeSize.height, height)) / 2 : y
                paints += subtitle.paints(in: context.placed(Rect(x: x, y: max(y, top), width: width, height: height), in: frame), context)
            }
        }
        let press = PressAppearance(released: paints, pressed: [.fill(frame, theme.rowPressed, radius: 0)] + paints)
        return LayoutNode(frame: frame, role: .row, identifier: row.identifier, label: Self.label(row), value: row.trailing,
                          interaction: .tap, paints: press.paints(isPressed: context.state.pressed == row.identifier),
                          press: press, children: children)
    }
}

/// Where everything in one row goes at one width, and so how tall it is.
struct RowPlan {
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
