import Graphics
import Testing
import Widgets

/// Right-to-left layout (Arabic) mirrors the way Android and iOS mirror:
/// rows start at the right, leading padding and text sit on the right,
/// list rows and scroll indicators swap sides; keypads keep 1-2-3.
@Suite struct MirroringTests {
    private func context(_ direction: LayoutDirection, state: InteractionState = InteractionState()) -> LayoutContext {
        var context = makeContext(state: state)
        context.direction = direction
        return context
    }

    /// `rect` reflected about the vertical centre line of `container`.
    private func mirrored(_ rect: Rect, in container: Rect) -> Rect {
        Rect(x: container.minX + container.maxX - rect.maxX, y: rect.minY, width: rect.width, height: rect.height)
    }

    /// Where the pen starts for a node's first line of text.
    private func firstTextX(_ node: LayoutNode) -> Int? {
        for paint in node.paints { if case .text(_, _, _, let baseline) = paint { return baseline.x } }
        return nil
    }

    @Test func aRowOfFixedChildrenMirrorsAboutItsContainer() throws {
        // Off the origin and with uneven padding, so that an unmirrored padding or origin shows.
        let row = HStack(spacing: 10, padding: Insets(top: 5, leading: 30, bottom: 5, trailing: 7), [
            Frame(width: 40, height: 20, Spacer()), Frame(width: 60, height: 20, Spacer()), Frame(width: 25, height: 20, Spacer()),
        ])
        let container = Rect(x: 50, y: 20, width: 300, height: 40)
        let ltr = row.layout(in: container, context(.leftToRight))
        let rtl = row.layout(in: container, context(.rightToLeft))
        try #require(ltr.children.count == 3 && rtl.children.count == 3)
        #expect(ltr.children[0].frame.minX == 80, "left to right starts after the 30 dp leading padding")
        for i in 0..<3 {
            #expect(rtl.children[i].frame == mirrored(ltr.children[i].frame, in: container), "child \(i)")
        }
        #expect(rtl.children[0].frame.maxX == container.maxX - 30, "right to left the leading padding is on the right")
        #expect(rtl.children[0].frame.minX > rtl.children[1].frame.maxX, "the first child is rightmost")
    }

    @Test func flexibleSharesAreTheSameMirrored() {
        let row = HStack(spacing: 8, [Frame(width: 50, Spacer()), Flexible(2, Spacer()), Flexible(1, Spacer())])
        let size = Size(width: 400, height: 30)
        let ltr = context(.leftToRight).layout(row, in: size)
        let rtl = context(.rightToLeft).layout(row, in: size)
        #expect(ltr.children.map(\.frame.width) == rtl.children.map(\.frame.width))
        #expect(rtl.children.map(\.frame) == ltr.children.map { mirrored($0.frame, in: ltr.frame) })
    }

    @Test func nestedStacksMirrorAsAWhole() {
        let screen = VStack(spacing: 6, alignment: .start, padding: Insets(top: 4, leading: 20, bottom: 4, trailing: 4), [
            HStack(spacing: 4, [
                Frame(width: 30, height: 30, Button("A", identifier: "a")),
                VStack(spacing: 2, alignment: .start, padding: Insets(leading: 9), [
                    Frame(width: 50, height: 20, Button("B", identifier: "b")),
                    HStack(spacing: 3, [Frame(width: 10, height: 10, Button("C", identifier: "c")),
                                        Frame(width: 20, height: 10, Button("D", identifier: "d"))]),
                ]),
            ]),
            Frame(width: 80, height: 30, Button("E", identifier: "e")),
        ])
        let size = Size(width: 500, height: 200)
        let ltr = context(.leftToRight).layout(screen, in: size)
        let rtl = context(.rightToLeft).layout(screen, in: size)
        for id in ["a", "b", "c", "d", "e"] {
            let l = ltr.node(withIdentifier: id)?.frame ?? .zero
            let r = rtl.node(withIdentifier: id)?.frame ?? .zero
            #expect(r == mirrored(l, in: ltr.frame), "\(id): \(r) is not \(l) mirrored")
        }
    }

    @Test func aLeadingLabelSitsAtTheRightEdgeRightToLeft() throws {
        let frame = Rect(x: 0, y: 0, width: 400, height: 40)
        for (alignment, expectRight) in [(TextAlignment.leading, true), (.trailing, false)] {
            let label = Label("Amount", alignment: alignment)
            let rtl = label.layout(in: frame, context(.rightToLeft))
            let ltr = label.layout(in: frame, context(.leftToRight))
            let width = makeContext().font(.body).width(of: "Amount")
            let rtlX = try #require(firstTextX(rtl)), ltrX = try #require(firstTextX(ltr))
            #expect(rtlX == (expectRight ? frame.maxX - width : frame.minX), "\(alignment) right to left")
            #expect(ltrX == (expectRight ? frame.minX : frame.maxX - width), "\(alignment) left to right")
        }
        let centred = Label("Amount", alignment: .center)
        #expect(centred.layout(in: frame, context(.rightToLeft)).paints == centred.layout(in: frame, context(.leftToRight)).paints)
    }

    @Test(arguments: [KeypadLayout.numeric, .alphanumeric])
    func keypadDigitsReadLeftToRightInBothDirections(layout: KeypadLayout) throws {
        let keypad = Keypad(identifier: "keys", layout: layout, name: "Keys", enterTitle: "OK", backspaceName: "Erase", spaceName: "Space")
        // Beside a form in a row, so the keypad itself moves to the other side.
        let row = HStack(spacing: 16, [Flexible(1, Label("Form", identifier: "form")), Flexible(1, keypad)])
        let size = Size(width: 800, height: 400)
        for direction in [LayoutDirection.leftToRight, .rightToLeft] {
            let tree = context(direction).layout(row, in: size)
            let one = try #require(tree.node(withIdentifier: "keys.1")).frame
            let three = try #require(tree.node(withIdentifier: "keys.3")).frame
            #expect(one.maxX <= three.minX, "1 is left of 3 (\(direction))")
            let pad = try #require(tree.node(withIdentifier: "keys")).frame
            let form = try #require(tree.node(withIdentifier: "form")).frame
            #expect(direction == .rightToLeft ? pad.maxX <= form.minX : pad.minX >= form.maxX, "the keypad follows its row (\(direction))")
        }
    }

    @Test func aListRowPutsItsTitleRightAndItsAmountLeft() throws {
        let list = List(identifier: "list", label: "Activity", rows: [
            ListRow(identifier: "r1", title: "Cash deposit", subtitle: "Today", trailing: "500.00 EUR", badge: Badge("Queued")),
        ])
        let frame = Rect(x: 0, y: 0, width: 600, height: 200)
        let ltr = list.layout(in: frame, context(.leftToRight))
        let rtl = list.layout(in: frame, context(.rightToLeft))
        func texts(_ tree: LayoutNode) -> [String: Int] {
            var xs: [String: Int] = [:]
            tree.node(withIdentifier: "r1")?.paints.forEach { if case .text(let t, _, _, let b) = $0 { xs[t] = b.x } }
            return xs
        }
        let l = texts(ltr), r = texts(rtl)
        let title = try #require(r["Cash deposit"]), amount = try #require(r["500.00 EUR"])
        #expect(title > amount, "right to left the title is right of the amount")
        #expect(try #require(l["Cash deposit"]) < (try #require(l["500.00 EUR"])))
        let font = makeContext().font(.body)
        #expect(title + font.width(of: "Cash deposit") == frame.maxX - 16, "the title ends at the row's right padding")
        let badge = try #require(rtl.node(withIdentifier: "r1")?.children.first { $0.role == .badge })
        let ltrBadge = try #require(ltr.node(withIdentifier: "r1")?.children.first { $0.role == .badge })
        #expect(badge.frame == mirrored(ltrBadge.frame, in: frame))
    }

    @Test func scrollIndicatorsMoveToTheLeftEdge() throws {
        let rows = (0..<40).map { ListRow(identifier: "r\($0)", title: "Row \($0)") }
        let frame = Rect(x: 0, y: 0, width: 400, height: 200)
        for direction in [LayoutDirection.leftToRight, .rightToLeft] {
            let tree = List(identifier: "list", label: "Rows", rows: rows).layout(in: frame, context(direction))
            let bar = try #require(tree.children.last { $0.role == .spacer })
            #expect(direction == .rightToLeft ? bar.frame.maxX < 20 : bar.frame.minX > 380, "\(direction): \(bar.frame)")
        }
        let area = ScrollArea(identifier: "area", label: "Area", Frame(height: 1000, Spacer()))
        let tree = area.layout(in: frame, context(.rightToLeft))
        let bar = try #require(tree.children.last)
        #expect(bar.frame.maxX < 20, "a scroll area's indicator too: \(bar.frame)")
    }

    /// A field's value starts at the right; the caret follows left-to-right data
    /// (an amount) on its right, and a PIN's dots start at the right.
    @Test func aFieldStartsAtTheRightRightToLeft() throws {
        let frame = Rect(x: 0, y: 0, width: 300, height: 48)
        let focused = InteractionState(focused: "amount")
        let field = TextField(identifier: "amount", label: "Amount", value: "250.00")
        let node = field.layout(in: frame, context(.rightToLeft, state: focused))
        let width = makeContext().font(.body).width(of: "250.00")
        let textX = try #require(firstTextX(node))
        #expect(textX + width <= frame.maxX - 14 && textX + width >= frame.maxX - 14 - 6, "the value ends at the right inset: \(textX)")
        var caret: Int?
        for paint in node.paints { if case .line(let from, _, _, _) = paint { caret = from.x } }
        #expect(try #require(caret) > textX + width, "the caret is right of the amount")
        let pin = TextField(identifier: "pin", label: "PIN", value: "1234", isSecure: true)
        var dots: [Int] = []
        for paint in pin.layout(in: frame, context(.rightToLeft)).paints { if case .circle(let center, _, _) = paint { dots.append(center.x) } }
        #expect(dots.count == 4 && dots.allSatisfy { $0 > frame.midX }, "the dots start at the right: \(dots)")
    }

    @Test func fixedDirectionKeepsARowLeftToRight() {
        let row = FixedDirection(.leftToRight, HStack(spacing: 0, [Frame(width: 10, Spacer()), Frame(width: 20, Spacer())]))
        let tree = context(.rightToLeft).layout(row, in: Size(width: 100, height: 10))
        #expect(tree.children.map(\.frame.minX) == [0, 10])
    }

    /// Hit testing, the press swapped in place and damage all follow the mirrored frames.
    @Test func touchesAndPressesFollowTheMirroredFrames() throws {
        let row = HStack(spacing: 8, padding: .all(8), [Button("Back", identifier: "back"), Spacer(), Button("Next", identifier: "next")])
        let size = Size(width: 600, height: 80)
        let tree = context(.rightToLeft).layout(row, in: size)
        let back = try #require(tree.node(withIdentifier: "back")).frame
        #expect(back.minX > 300, "Back is on the right: \(back)")
        #expect(tree.identifier(at: back.center) == "back")
        #expect(tree.identifier(at: Point(x: size.width - back.center.x, y: back.center.y)) == "next")
        var pressedTree = tree
        var pressable = PressableNodes(tree, pressed: nil)
        let damage = pressable.press("back", in: &pressedTree)
        #expect(damage == [back])
        let laidOutPressed = context(.rightToLeft, state: InteractionState(pressed: "back")).layout(row, in: size)
        #expect(pressedTree == laidOutPressed)
        #expect(tree.accessibilityNode.children.first?.frame.x == back.minX)
    }
}
