import Foundation
import Graphics
import TellerUI
import Testing
import Widgets

/// Real screens on the fakes, laid out right to left as Arabic lays them
/// out: the top row's Back is on the right with the title to its left,
/// and a finger there goes back.
///
/// The direction is set on the layout context, not through the process's
/// language, so these run beside the other tests without changing them.
/// With TELLER_MIRRORED_SCREENS=<directory> they write the mirrored
/// screens there as PNGs, to look at.
@MainActor
@Suite struct MirroringScreenTests {
    private func layout(_ d: TerminalDriver, _ direction: LayoutDirection, _ display: Display = .small) -> LayoutNode {
        var context = d.context(display)
        context.direction = direction
        return context.layout(d.view.body(), in: display.size)
    }

    @Test(arguments: Display.all)
    func backIsOnTheRightWithTheTitleToItsLeft(display: Display) async throws {
        let d = try await Scenario.amount.make()
        let tree = layout(d, .rightToLeft, display)
        let back = try #require(tree.node(withIdentifier: AmountEntryScreen.Control.back.rawValue)).frame
        let title = try #require(titleNode(tree, d.view.screen.title)).frame
        #expect(back.minX >= display.size.width / 2, "Back \(back) is not on the right half of \(display)")
        #expect(title.maxX <= back.minX, "the title \(title) is not left of Back \(back)")
        let ltr = layout(d, .leftToRight, display)
        let ltrBack = try #require(ltr.node(withIdentifier: AmountEntryScreen.Control.back.rawValue)).frame
        #expect(back == Rect(x: display.size.width - ltrBack.maxX, y: ltrBack.minY, width: ltrBack.width, height: ltrBack.height),
                "Back mirrors its left-to-right place")
    }

    @Test func aTapWhereBackIsMirroredGoesBack() async throws {
        let d = try await Scenario.amount.make()
        let tree = layout(d, .rightToLeft)
        let back = try #require(tree.node(withIdentifier: AmountEntryScreen.Control.back.rawValue)).frame
        let ltrBack = try #require(layout(d, .leftToRight).node(withIdentifier: AmountEntryScreen.Control.back.rawValue)).frame
        #expect(tree.identifier(at: ltrBack.center) != AmountEntryScreen.Control.back.rawValue, "Back is still where it is left to right")
        let tapped = try #require(tree.identifier(at: back.center))
        #expect(tapped == AmountEntryScreen.Control.back.rawValue)
        #expect(d.view.handleTap(identifier: tapped))
        await d.coordinator.settle()
        #expect(d.coordinator.current.screenName == "account")
    }

    /// The amount keypad moves to the left of the form, its keys keep 1-2-3,
    /// and every control is still whole on screen and reachable where it is drawn.
    @Test func theAmountScreenMirrorsButItsKeypadDoesNot() async throws {
        let d = try await Scenario.amount.make()
        let tree = layout(d, .rightToLeft)
        let keys = try #require(tree.node(withIdentifier: AmountEntryScreen.Control.keys)).frame
        let field = try #require(tree.node(withIdentifier: AmountEntryScreen.Control.amountField.rawValue)).frame
        #expect(keys.maxX <= field.minX, "the keypad \(keys) is left of the form \(field)")
        let one = try #require(tree.node(withIdentifier: "amount.keys.1")).frame
        let three = try #require(tree.node(withIdentifier: "amount.keys.3")).frame
        #expect(one.maxX <= three.minX)
        for (node, visible) in tree.visibleNodes() where node.interaction == .tap && node.isEnabled && !visible.isEmpty {
            #expect(tree.identifier(at: visible.center) == node.identifier, "\(node.identifier ?? "?") is covered at \(visible.center)")
        }
        if let directory = ProcessInfo.processInfo.environment["TELLER_MIRRORED_SCREENS"] {
            try write(tree, d, to: URL(fileURLWithPath: directory).appendingPathComponent("amount-rtl.png"))
        }
    }

    @Test func homeAndAccountScreensMirror() async throws {
        for scenario in [Scenario.home, .account, .queue] {
            let d = try await scenario.make()
            let ltr = layout(d, .leftToRight), rtl = layout(d, .rightToLeft)
            // The status bar's operator is on the right and the clock on the left.
            let who = try #require(rtl.node(withIdentifier: "status.who")).frame
            let clock = try #require(rtl.node(withIdentifier: "status.clock")).frame
            #expect(clock.maxX <= who.minX, "\(scenario): the clock \(clock) is not left of the operator \(who)")
            let ltrWho = try #require(ltr.node(withIdentifier: "status.who")).frame
            #expect(who == mirroredOnScreen(ltrWho))
            if let directory = ProcessInfo.processInfo.environment["TELLER_MIRRORED_SCREENS"] {
                try write(rtl, d, to: URL(fileURLWithPath: directory).appendingPathComponent("\(scenario.rawValue)-rtl.png"))
            }
        }
    }

    private func mirroredOnScreen(_ rect: Rect) -> Rect {
        Rect(x: Display.small.size.width - rect.maxX, y: rect.minY, width: rect.width, height: rect.height)
    }

    /// The text node showing the screen's title (the screen node itself carries it too).
    private func titleNode(_ tree: LayoutNode, _ title: String) -> LayoutNode? {
        var found: LayoutNode?
        tree.forEach { node in if found == nil && node.role == .text && node.label == title { found = node } }
        return found
    }

    private func write(_ tree: LayoutNode, _ d: TerminalDriver, to url: URL) throws {
        let surface = Surface(size: tree.frame.size)
        Renderer(fonts: d.fonts).render(tree, into: surface)
        try Data(PNG.encode(surface)).write(to: url)
    }
}
