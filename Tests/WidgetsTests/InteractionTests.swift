import Graphics
import Testing
import Widgets

@Suite struct InteractionTests {
    let size = Size(width: 800, height: 480)

    func layout(_ widget: any Widget, _ state: InteractionState = InteractionState()) -> LayoutNode {
        makeContext(state: state).layout(widget, in: size)
    }

    @Test func hitTestFindsTheKeyUnderTheFinger() {
        let tree = layout(TellerScreens.signIn())
        let seven = tree.node(withIdentifier: "sign-in.pin.7")!
        #expect(tree.identifier(at: seven.frame.center) == "sign-in.pin.7")
        #expect(tree.identifier(at: Point(x: 5, y: 470)) == nil)
        let field = tree.node(withIdentifier: "sign-in.operator")!
        #expect(tree.identifier(at: field.frame.center) == "sign-in.operator")
    }

    /// An empty stack laid out after a button (a screen's message area with
    /// no message) has an empty frame; it must not take the button's taps.
    @Test func anEmptyStackAfterAButtonDoesNotHideIt() throws {
        let tree = layout(VStack(spacing: 8, [
            Button("Back", identifier: "back"),
            VStack(spacing: 4, []),
            Spacer(),
        ]))
        let back = try #require(tree.node(withIdentifier: "back"))
        #expect(tree.identifier(at: back.frame.center) == "back")
    }

    @Test func modalScrimSwallowsTouchesBelowIt() {
        let tree = layout(TellerScreens.rejectedAlert())
        let keyBelow = tree.node(withIdentifier: "deposit.keypad.9")!
        #expect(tree.identifier(at: keyBelow.frame.center) == nil)
        #expect(tree.hitTest(keyBelow.frame.center)?.role == .scrim)
        let ok = tree.node(withIdentifier: "alert.rejected.ok")!
        #expect(tree.identifier(at: ok.frame.center) == "alert.rejected.ok")
    }

    @Test func downPressesAndUpTaps() {
        var state = InteractionState()
        var tracker = TouchTracker(scale: .one)
        let tree = layout(TellerScreens.signIn())
        let five = tree.node(withIdentifier: "sign-in.pin.5")!.frame
        tracker.down(at: five.center, in: tree, state: &state)
        #expect(state.pressed == "sign-in.pin.5")
        #expect(layout(TellerScreens.signIn(), state).node(withIdentifier: "sign-in.pin.5")
            != tree.node(withIdentifier: "sign-in.pin.5"))
        tracker.move(to: five.center.offset(dx: 3, dy: 2), state: &state)
        #expect(state.pressed == "sign-in.pin.5")
        #expect(tracker.up(at: five.center, state: &state) == "sign-in.pin.5")
        #expect(state.pressed == nil)
        #expect(!tracker.isTracking)
    }

    @Test func cancelReleasesWithoutTapping() {
        var state = InteractionState()
        var tracker = TouchTracker(scale: .one)
        let tree = layout(TellerScreens.signIn())
        tracker.down(at: tree.node(withIdentifier: "sign-in.pin.enter")!.frame.center, in: tree, state: &state)
        #expect(state.pressed == "sign-in.pin.enter")
        tracker.cancel(state: &state)
        #expect(state.pressed == nil)
        #expect(tracker.up(at: tree.node(withIdentifier: "sign-in.pin.enter")!.frame.center, state: &state) == nil)
    }

    @Test func leavingTheButtonReleasesItAndUpOutsideDoesNotTap() {
        var state = InteractionState()
        var tracker = TouchTracker(scale: .one)
        let tree = layout(TellerScreens.signIn())
        let one = tree.node(withIdentifier: "sign-in.pin.1")!.frame
        tracker.down(at: one.center, in: tree, state: &state)
        tracker.move(to: Point(x: one.maxX + 30, y: one.midY), state: &state)
        #expect(state.pressed == nil)
        tracker.move(to: one.center, state: &state)
        #expect(state.pressed == "sign-in.pin.1")
        tracker.move(to: Point(x: one.maxX + 30, y: one.midY), state: &state)
        #expect(tracker.up(at: Point(x: one.maxX + 30, y: one.midY), state: &state) == nil)
    }

    @Test func draggingARowBeyondTheSlopScrollsTheListInsteadOfTapping() {
        var state = InteractionState()
        var tracker = TouchTracker(slop: 10)
        let tree = layout(TellerScreens.account())
        let row = tree.node(withIdentifier: "activity.2")!.frame
        tracker.down(at: row.center, in: tree, state: &state)
        #expect(state.pressed == "activity.2")
        tracker.move(to: row.center.offset(dx: 0, dy: -8), state: &state)
        #expect(state.pressed == "activity.2")
        #expect(state.scrollOffsets["activity"] == nil)
        tracker.move(to: row.center.offset(dx: 0, dy: -60), state: &state)
        #expect(state.pressed == nil)
        #expect(state.scrollOffsets["activity"] == 60)
        tracker.move(to: row.center.offset(dx: 0, dy: -5000), state: &state)
        let list = tree.node(withIdentifier: "activity")!
        guard case .scroll(let contentHeight) = list.interaction else {
            Issue.record("list is not scrollable")
            return
        }
        #expect(state.scrollOffsets["activity"] == contentHeight - list.frame.height)
        #expect(tracker.up(at: row.center.offset(dx: 0, dy: -5000), state: &state) == nil)
        let scrolled = layout(TellerScreens.account(), state)
        #expect(scrolled.node(withIdentifier: "activity.9")!.frame.maxY == list.frame.maxY)
    }

    @Test func tappingAFieldFocusesItAndTabCyclesFocus() {
        var state = InteractionState()
        var tracker = TouchTracker(scale: .one)
        let tree = layout(TellerScreens.transferForm())
        let iban = tree.node(withIdentifier: "transfer.iban")!.frame
        tracker.down(at: iban.center, in: tree, state: &state)
        #expect(tracker.up(at: iban.center, state: &state) == "transfer.iban")
        #expect(state.focused == "transfer.iban")
        state.moveFocus(forward: true, in: tree)
        #expect(state.focused == "transfer.reference")
        state.moveFocus(forward: true, in: tree)
        #expect(state.focused == "transfer.iban")
        state.moveFocus(forward: false, in: tree)
        #expect(state.focused == "transfer.reference")
    }

    @Test func disabledButtonsDoNotPressOrTap() {
        var state = InteractionState()
        var tracker = TouchTracker(scale: .one)
        let tree = layout(TellerScreens.transferForm())
        let review = tree.node(withIdentifier: "transfer.review")!
        #expect(!review.isEnabled)
        tracker.down(at: review.frame.center, in: tree, state: &state)
        #expect(state.pressed == nil)
        #expect(tracker.up(at: review.frame.center, state: &state) == nil)
    }
}

extension Point {
    func offset(dx: Int, dy: Int) -> Point { Point(x: x + dx, y: y + dy) }
}
