import Graphics

/// The shared arithmetic of ``VStack`` and ``HStack``: measure children along
/// the main axis, hand spare space to flexible children by weight, squeeze
/// fixed children proportionally when even they do not fit.
struct StackLayout {
    let axis: Axis
    let spacing: Double
    let alignment: CrossAlignment
    let padding: Insets
    let children: [any Widget]

    func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let pad = paddingPixels(context)
        let inner = Size(width: max(0, available.width - pad.width), height: max(0, available.height - pad.height))
        var main = 0, cross = 0
        for child in children {
            let size = child.measure(inner, context)
            main += self.main(size)
            cross = max(cross, self.cross(size))
        }
        main += context.px(spacing) * max(0, children.count - 1)
        return axis == .vertical
            ? Size(width: cross + pad.width, height: main + pad.height)
            : Size(width: main + pad.width, height: cross + pad.height)
    }

    func flexibility(_ along: Axis) -> Double {
        // A Spacer stretches its stack along the stack's own axis only.
        let relevant = along == axis ? children : children.filter { !($0 is Spacer) }
        return relevant.map { weight(of: $0, along) }.max() ?? 0
    }

    /// A child's flexibility; a ``Flexible``'s weight counts along this stack's axis only,
    /// so a row of equal-width buttons does not also grow tall.
    private func weight(of child: any Widget, _ along: Axis) -> Double {
        if let flexible = child as? Flexible, along != axis { return flexible.child.flexibility(along) }
        return child.flexibility(along)
    }

    func layoutChildren(in frame: Rect, _ context: LayoutContext) -> [LayoutNode] {
        let pad = paddingPixels(context)
        let content = Rect(
            x: frame.minX + context.px(padding.leading), y: frame.minY + context.px(padding.top),
            width: max(0, frame.width - pad.width), height: max(0, frame.height - pad.height))
        let gap = context.px(spacing)
        let contentMain = main(content.size)
        let contentCross = cross(content.size)
        let room = max(0, contentMain - gap * max(0, children.count - 1))
        var lengths = [Int](repeating: 0, count: children.count)
        var crossSizes = [Int](repeating: contentCross, count: children.count)
        var fixedTotal = 0
        var flexTotal = 0.0
        for (i, child) in children.enumerated() {
            let flex = weight(of: child, axis)
            let size = child.measure(content.size, context)
            crossSizes[i] = min(contentCross, cross(size))
            if flex > 0 {
                flexTotal += flex
            } else {
                lengths[i] = main(size)
                fixedTotal += lengths[i]
            }
        }
        if fixedTotal > room {
            // Too little room even for fixed content: shrink every fixed child by the same ratio.
            var used = 0
            for i in children.indices where weight(of: children[i], axis) == 0 {
                lengths[i] = lengths[i] * room / max(1, fixedTotal)
                used += lengths[i]
            }
            fixedTotal = used
        }
        var spare = max(0, room - fixedTotal)
        if flexTotal > 0 {
            var remainingWeight = flexTotal
            for i in children.indices {
                let flex = weight(of: children[i], axis)
                guard flex > 0 else { continue }
                let share = remainingWeight <= flex ? spare : Int(Double(spare) * flex / remainingWeight)
                lengths[i] = share
                spare -= share
                remainingWeight -= flex
            }
        }
        var offset = axis == .vertical ? content.minY : content.minX
        var nodes: [LayoutNode] = []
        nodes.reserveCapacity(children.count)
        for (i, child) in children.enumerated() {
            let stretch = alignment == .fill || weight(of: child, axis == .vertical ? .horizontal : .vertical) > 0
            let crossLength = stretch ? contentCross : crossSizes[i]
            let crossStart = axis == .vertical ? content.minX : content.minY
            let crossOffset: Int
            switch stretch ? .fill : alignment {
            case .start, .fill: crossOffset = 0
            case .center: crossOffset = (contentCross - crossLength) / 2
            case .end: crossOffset = contentCross - crossLength
            }
            let childFrame = axis == .vertical
                ? Rect(x: crossStart + crossOffset, y: offset, width: crossLength, height: lengths[i])
                : Rect(x: offset, y: crossStart + crossOffset, width: lengths[i], height: crossLength)
            nodes.append(child.layout(in: childFrame, context))
            offset += lengths[i] + gap
        }
        return nodes
    }

    private func paddingPixels(_ context: LayoutContext) -> Size {
        Size(width: context.px(padding.leading) + context.px(padding.trailing),
             height: context.px(padding.top) + context.px(padding.bottom))
    }

    private func main(_ size: Size) -> Int { axis == .vertical ? size.height : size.width }
    private func cross(_ size: Size) -> Int { axis == .vertical ? size.width : size.height }
}
