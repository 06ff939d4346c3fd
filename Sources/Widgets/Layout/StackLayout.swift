import Graphics

/// The shared arithmetic of ``VStack`` and ``HStack``.
///
/// Along the main axis fixed children get their measured length and
/// flexible children share the rest by weight, never below their minimum.
/// When even that does not fit, fixed children give up the slack between
/// their measured and minimum lengths, in proportion; only when the
/// minimums themselves do not fit does everything shrink by one ratio.
struct StackLayout {
    let axis: Axis
    let spacing: Double
    let alignment: CrossAlignment
    let padding: Insets
    let children: [any Widget]

    /// A column's children are measured at its width. A row's are measured
    /// again at the widths they will get, because text wraps to that width
    /// and a wrapped label is taller than the same label on one line.
    func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let content = inner(available, context)
        let measured = children.map { $0.measure(content, context) }
        guard axis == .horizontal else { return combine(measured, context) }
        let (_, lengths) = mainLengths(content, context, measured: measured)
        let heights = zip(children, lengths).map { child, width in
            child.measure(Size(width: width, height: content.height), context).height
        }
        return combine(zip(measured, heights).map { Size(width: $0.width, height: $1) }, context)
    }

    func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        combine(children.map { $0.minimumSize(inner(available, context), context) }, context)
    }

    func flexibility(_ along: Axis) -> Double {
        // A Spacer stretches its stack along the stack's own axis only.
        // Asked for every child of every stack, several times a layout: no arrays made.
        var most: Double?
        for child in children where along == axis || !(child is Spacer) {
            let weight = weight(of: child, along)
            most = max(most ?? weight, weight)
        }
        return most ?? 0
    }

    func layoutChildren(in frame: Rect, _ context: LayoutContext) -> [LayoutNode] {
        let pad = paddingPixels(context)
        let isRightToLeft = context.direction == .rightToLeft
        // The leading inset is on the right when the screen reads right to left.
        let content = Rect(
            x: frame.minX + context.px(isRightToLeft ? padding.trailing : padding.leading), y: frame.minY + context.px(padding.top),
            width: max(0, frame.width - pad.width), height: max(0, frame.height - pad.height))
        let gap = context.px(spacing)
        let contentCross = cross(content.size)
        let (measured, lengths) = mainLengths(content.size, context)

        var offset = axis == .vertical ? content.minY : content.minX
        var nodes: [LayoutNode] = []
        nodes.reserveCapacity(children.count)
        for (i, child) in children.enumerated() {
            let stretch = alignment == .fill || weight(of: child, axis == .vertical ? .horizontal : .vertical) > 0
            let crossLength = stretch ? contentCross : min(contentCross, cross(measured[i]))
            let crossStart = axis == .vertical ? content.minX : content.minY
            let crossOffset: Int
            switch stretch ? .fill : alignment {
            case .start, .fill: crossOffset = 0
            case .center: crossOffset = (contentCross - crossLength) / 2
            case .end: crossOffset = contentCross - crossLength
            }
            var childFrame = axis == .vertical
                ? Rect(x: crossStart + crossOffset, y: offset, width: crossLength, height: lengths[i])
                : Rect(x: offset, y: crossStart + crossOffset, width: lengths[i], height: crossLength)
            // Right to left, a row starts at the right and a column's start alignment is its right edge.
            if isRightToLeft { childFrame = context.placed(childFrame, in: content) }
            nodes.append(child.layout(in: childFrame, context))
            offset += lengths[i] + gap
        }
        return nodes
    }

    /// Every child measured in `content`, and its length along the main axis.
    ///
    /// A fixed child's minimum counts only when the natural lengths do not
    /// fit (``distribute(room:natural:minimum:weights:)``), so it is asked
    /// for only then: a minimum measures the child again, and its children
    /// in turn: a fifth of the account screen's layout when everything fits.
    private func mainLengths(_ content: Size, _ context: LayoutContext, measured: [Size]? = nil) -> ([Size], [Int]) {
        let room = max(0, main(content) - context.px(spacing) * max(0, children.count - 1))
        let measured = measured ?? children.map { $0.measure(content, context) }
        let natural = measured.map(main)
        let weights = children.map { weight(of: $0, axis) }
        func minimum(_ i: Int) -> Int { min(natural[i], main(children[i].minimumSize(content, context))) }
        // Until it is known to count, a fixed child's minimum stands at its natural length.
        var minimums = natural
        var fixedNatural = 0, flexibleMinimum = 0
        for i in children.indices {
            if weights[i] > 0 {
                minimums[i] = minimum(i)
                flexibleMinimum += minimums[i]
            } else {
                fixedNatural += natural[i]
            }
        }
        if fixedNatural + flexibleMinimum > room {
            for i in children.indices where weights[i] == 0 { minimums[i] = minimum(i) }
        }
        return (measured, distribute(room: room, natural: natural, minimum: minimums, weights: weights))
    }

    /// Main-axis lengths for every child; see the type's discussion for the rules.
    private func distribute(room: Int, natural: [Int], minimum: [Int], weights: [Double]) -> [Int] {
        let flexible = weights.indices.filter { weights[$0] > 0 }
        let fixed = weights.indices.filter { weights[$0] == 0 }
        var lengths = natural
        let fixedNatural = fixed.reduce(0) { $0 + natural[$1] }
        let flexibleMinimum = flexible.reduce(0) { $0 + minimum[$1] }
        if fixedNatural + flexibleMinimum <= room {
            // Water-filling: a child whose weighted share is below its minimum gets the
            // minimum and drops out; the others split what is left.
            var active = flexible
            var spare = room - fixedNatural
            while !active.isEmpty {
                let total = active.reduce(0.0) { $0 + weights[$1] }
                let starved = active.filter { Double(spare) * weights[$0] / total < Double(minimum[$0]) }
                if starved.isEmpty {
                    var left = spare, weightLeft = total
                    for i in active {
                        let share = weightLeft <= weights[i] ? left : Int(Double(left) * weights[i] / weightLeft)
                        lengths[i] = share
                        left -= share
                        weightLeft -= weights[i]
                    }
                    break
                }
                for i in starved {
                    lengths[i] = minimum[i]
                    spare -= minimum[i]
                }
                active.removeAll { starved.contains($0) }
            }
            return lengths
        }
        for i in flexible { lengths[i] = minimum[i] }
        let deficit = fixedNatural + flexibleMinimum - room
        let slack = fixed.reduce(0) { $0 + natural[$1] - minimum[$1] }
        if slack >= deficit {
            var taken = 0
            for (n, i) in fixed.enumerated() {
                let share = n == fixed.count - 1 ? deficit - taken : deficit * (natural[i] - minimum[i]) / max(1, slack)
                let take = min(natural[i] - minimum[i], share)
                lengths[i] = natural[i] - take
                taken += take
            }
            return lengths
        }
        // Not even the minimums fit: shrink everything alike rather than spill out of the frame.
        let total = minimum.reduce(0, +)
        return minimum.map { $0 * room / max(1, total) }
    }

    /// A child's flexibility; a ``Flexible``'s weight counts along this stack's axis only,
    /// so a row of equal-width buttons does not also grow tall.
    private func weight(of child: any Widget, _ along: Axis) -> Double {
        if let flexible = child as? Flexible, along != axis { return flexible.child.flexibility(along) }
        return child.flexibility(along)
    }

    private func inner(_ available: Size, _ context: LayoutContext) -> Size {
        let pad = paddingPixels(context)
        return Size(width: max(0, available.width - pad.width), height: max(0, available.height - pad.height))
    }

    private func combine(_ sizes: [Size], _ context: LayoutContext) -> Size {
        let pad = paddingPixels(context)
        let main = sizes.reduce(0) { $0 + self.main($1) } + context.px(spacing) * max(0, sizes.count - 1)
        let cross = sizes.map(self.cross).max() ?? 0
        return axis == .vertical
            ? Size(width: cross + pad.width, height: main + pad.height)
            : Size(width: main + pad.width, height: cross + pad.height)
    }

    private func paddingPixels(_ context: LayoutContext) -> Size {
        Size(width: context.px(padding.leading) + context.px(padding.trailing),
             height: context.px(padding.top) + context.px(padding.bottom))
    }

    private func main(_ size: Size) -> Int { axis == .vertical ? size.height : size.width }
    private func cross(_ size: Size) -> Int { axis == .vertical ? size.width : size.height }
}
