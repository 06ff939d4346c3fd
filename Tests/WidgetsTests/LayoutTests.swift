import Graphics
import Testing
import Widgets

@Suite struct LayoutTests {
    @Test(arguments: [1.0, 2.0])
    func stackPlacesChildrenInDensityIndependentUnits(scale: Double) {
        let context = makeContext(scale: scale)
        let size = Size(width: Int(400 * scale), height: Int(300 * scale))
        let tree = context.layout(VStack(spacing: 10, padding: .all(20), [
            Frame(height: 50, Spacer()),
            Button("Pay", identifier: "pay"),
            Spacer(),
        ]), in: size)
        let button = tree.node(withIdentifier: "pay")!
        let px = { (dp: Double) in Int(dp * scale) }
        #expect(tree.children[0].frame == Rect(x: px(20), y: px(20), width: px(360), height: px(50)))
        #expect(button.frame.minX == px(20) && button.frame.minY == px(80))
        #expect(button.frame.width == px(360))
        #expect(button.frame.height == px(48))
        #expect(tree.children[2].frame.maxY == px(280))
    }

    /// The same screen on a panel twice as dense has every control at twice the
    /// pixels; hinted line heights round per label, so offsets may drift by up to 2%.
    @Test func composedScreenScalesWithDensity() {
        let single = makeContext(scale: 1).layout(TellerScreens.signIn(), in: Size(width: 800, height: 480))
        let double = makeContext(scale: 2).layout(TellerScreens.signIn(), in: Size(width: 1600, height: 960))
        let pairs = zip(single.interactiveNodes, double.interactiveNodes)
        #expect(single.interactiveNodes.count == double.interactiveNodes.count)
        for (a, b) in pairs {
            #expect(a.identifier == b.identifier)
            for (x1, x2) in [(a.frame.minX, b.frame.minX), (a.frame.minY, b.frame.minY),
                             (a.frame.width, b.frame.width), (a.frame.height, b.frame.height)] {
                #expect(abs(2 * x1 - x2) <= max(4, x2 / 50), "\(a.identifier ?? "?"): \(a.frame) vs \(b.frame)")
            }
        }
    }

    @Test func flexibleChildrenShareSpareSpaceByWeight() {
        let context = makeContext()
        let tree = context.layout(HStack(spacing: 0, [Flexible(3, Spacer()), Flexible(1, Spacer())]),
                                  in: Size(width: 400, height: 100))
        #expect(tree.children.map(\.frame.width) == [300, 100])
    }

    @Test func alignmentPlacesNarrowChildren() {
        let context = makeContext()
        let tree = context.layout(VStack(alignment: .end, [Button("OK", identifier: "ok")]),
                                  in: Size(width: 400, height: 100))
        #expect(tree.children[0].frame.maxX == 400)
        #expect(tree.children[0].frame.width < 400)
    }

    /// Every screen at every density, text scale and theme: interactive nodes
    /// keep 48 dp, children stay inside their parents, siblings in stacks and
    /// keys on keypads never overlap, and text stays inside its node.
    @Test(arguments: [1.0, 1.5, 2.0])
    func screensSurviveTextScale(textScale: Double) {
        for screen in TellerScreens.all {
            for (size, scale) in [(Size(width: 800, height: 480), 1.0), (Size(width: 1280, height: 800), 1.5)] {
                let context = makeContext(scale: scale, textScale: textScale, state: screen.state)
                let tree = context.layout(screen.widget, in: size)
                let where_ = "\(screen.name) \(size) text \(textScale)"
                check(tree, inside: tree.frame, context, where_)
                for node in tree.interactiveNodes where node.role != .list {
                    #expect(node.frame.width >= context.minimumTouchPixels, "\(where_): \(node.identifier ?? "?") too narrow")
                    #expect(node.frame.height >= context.minimumTouchPixels, "\(where_): \(node.identifier ?? "?") too short")
                }
            }
        }
    }

    private func check(_ node: LayoutNode, inside bounds: Rect, _ context: LayoutContext, _ where_: String) {
        #expect(bounds.contains(node.frame), "\(where_): \(node.role) \(node.identifier ?? "") \(node.frame) outside \(bounds)")
        for paint in node.paints {
            if case .text(let text, let spec, _, let baseline) = paint {
                let box = context.font(spec).bounds(of: text, baseline: baseline)
                #expect(node.frame.insetBy(dx: -1, dy: -1).contains(box),
                        "\(where_): text \"\(text)\" \(box) spills out of \(node.frame)")
            }
        }
        // A modal deliberately lays its scrim over the screen below.
        let isOverlay = node.children.contains { $0.role == .scrim }
        if (node.role == .group || node.role == .keypad) && !isOverlay {
            let frames = node.children.map(\.frame).filter { !$0.isEmpty }
            for i in frames.indices {
                for j in frames.indices where j > i {
                    #expect(!frames[i].intersects(frames[j]), "\(where_): siblings \(frames[i]) and \(frames[j]) overlap")
                }
            }
        }
        // A scrolling list legitimately lays rows out beyond its viewport.
        for child in node.children where node.role != .scrim && !node.clipsChildren {
            check(child, inside: node.frame, context, where_)
        }
    }

    @Test func keypadsHaveEveryKeyWithItsOwnIdentifier() {
        let context = makeContext()
        let numeric = context.layout(Keypad(identifier: "sign-in.pin", name: "PIN pad", enterTitle: "OK", backspaceName: "Delete", spaceName: "Space"), in: Size(width: 300, height: 320))
        let ids = Set(numeric.children.compactMap(\.identifier))
        #expect(ids == Set((0...9).map { "sign-in.pin.\($0)" } + ["sign-in.pin.00", "sign-in.pin.backspace", "sign-in.pin.enter"]))
        let keyboard = context.layout(Keypad(identifier: "kb", layout: .alphanumeric, name: "Keyboard", enterTitle: "OK", backspaceName: "Delete", spaceName: "Space"), in: Size(width: 800, height: 300))
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map { "kb.\($0)" }
        let expected = Set(letters + (0...9).map { "kb.\($0)" } + ["kb.space", "kb.backspace", "kb.enter"])
        #expect(Set(keyboard.children.compactMap(\.identifier)) == expected)
        #expect(keyboard.children.count == expected.count)
    }

    @Test func keypadKeysDecodeFromTapIdentifiers() {
        #expect(KeypadKey(tapIdentifier: "sign-in.pin.7", keypadIdentifier: "sign-in.pin") == .digit(7))
        #expect(KeypadKey(tapIdentifier: "sign-in.pin.00", keypadIdentifier: "sign-in.pin") == .doubleZero)
        #expect(KeypadKey(tapIdentifier: "kb.Q", keypadIdentifier: "kb") == .letter("Q"))
        #expect(KeypadKey(tapIdentifier: "kb.backspace", keypadIdentifier: "kb") == .backspace)
        #expect(KeypadKey(tapIdentifier: "other.7", keypadIdentifier: "kb") == nil)
        #expect(KeypadKey(tapIdentifier: "kb.zz", keypadIdentifier: "kb") == nil)
    }
}

@Suite struct KeypadEditingTests {
    @Test func keysEditTheFieldValue() {
        #expect(KeypadKey.digit(4).applied(to: "12") == "124")
        #expect(KeypadKey.doubleZero.applied(to: "5") == "500")
        #expect(KeypadKey.backspace.applied(to: "124") == "12")
        #expect(KeypadKey.backspace.applied(to: "") == "")
        #expect(KeypadKey.space.applied(to: "INVOICE") == "INVOICE ")
        #expect(KeypadKey.letter("Q").applied(to: "") == "Q")
        #expect(KeypadKey.enter.applied(to: "1234") == "1234")
        #expect(KeypadKey.digit(7).applied(to: "123456", maxLength: 6) == "123456")
    }
}
