import Graphics
import TellerCore
import TellerFakes
import TellerFeatures
import TellerUI
import Testing
import Widgets

/// The queue after days offline: hundreds of rows the operator must still get through.
@MainActor
@Suite struct LongQueueTests {
    /// A terminal on the queue screen with `rows` deposits in its outbox.
    func queue(rows: Int) async throws -> TerminalDriver {
        let d = await TerminalDriver()
        await d.signIn()
        try await d.harness.fillQueue(rows: rows)
        await d.tap(HomeScreen.Control.queue)
        return d
    }

    func isVisible(_ identifier: String, in tree: LayoutNode) -> Bool {
        !(tree.visibleFrame(ofIdentifier: identifier, within: tree.frame) ?? .zero).isEmpty
    }

    @Test func oneTapOnOldestReachesTheFirstRowEnteredAndTopComesBack() async throws {
        let d = try await queue(rows: 200)
        let model = try #require(d.coordinator.current.queue)
        // The oldest entry is the first deposit, 10.00 EUR; the rows to act on come before it, so it is the last row.
        let oldest = try #require(model.rows.lastIndex { $0.amount == MoneyFormatting.text(FeatureHarness.eur(1_000)) })
        #expect(oldest == 199)
        #expect(!isVisible(QueueScreen.Control.row(oldest).rawValue, in: d.layout()))
        await d.tap(QueueScreen.Control.bottom)
        let bottom = d.layout()
        #expect(isVisible(QueueScreen.Control.row(oldest).rawValue, in: bottom))
        #expect(!isVisible(QueueScreen.Control.row(0).rawValue, in: bottom))
        await d.tap(QueueScreen.Control.top)
        let top = d.layout()
        #expect(isVisible(QueueScreen.Control.row(0).rawValue, in: top))
        #expect(!isVisible(QueueScreen.Control.row(oldest).rawValue, in: top))
    }

    @Test func jumpControlsAreFullTouchTargetsAndOnlyThereWhenTheListScrolls() async throws {
        for display in Display.all {
            let tree = try await queue(rows: 200).layout(display)
            for id in [QueueScreen.Control.top.rawValue, QueueScreen.Control.bottom.rawValue] {
                let node = try #require(tree.node(withIdentifier: id), "\(display): no \(id)")
                let minimum = Scale(display.scale).pixels(LayoutContext.minimumTouchTarget)
                #expect(node.frame.width >= minimum && node.frame.height >= minimum, "\(display): \(id) is \(node.frame)")
                #expect(isVisible(id, in: tree))
            }
        }
        let short = try await queue(rows: 3).layout()
        #expect(short.node(withIdentifier: QueueScreen.Control.top.rawValue) == nil)
        #expect(short.node(withIdentifier: QueueScreen.Control.bottom.rawValue) == nil)
    }

    @Test func aThousandRowsDrawOnlyTheRowsInView() async throws {
        let d = try await queue(rows: 1_000)
        for jump in [QueueScreen.Control.top.rawValue, QueueScreen.Control.bottom.rawValue] {
            await d.tap(jump)
            let tree = d.layout()
            let list = try #require(tree.node(withIdentifier: QueueScreen.Control.list))
            #expect(list.value == "1000")
            var rows = 0
            var drawn: [LayoutNode] = []
            tree.forEach { node in
                if node.role == .row {
                    rows += 1
                    if !node.paints.isEmpty || !node.children.isEmpty { drawn.append(node) }
                }
            }
            #expect(rows == 1_000, "every row is listed for QA")
            #expect(drawn.filter { !$0.frame.intersects(list.frame) }.isEmpty, "rows drawn out of view")
            #expect(!drawn.isEmpty && drawn.count <= 8, "\(drawn.count) rows drawn in a \(list.frame.height) px list")
        }
    }

    /// The queue's stacks measure the list and then place it at the same width: showing 1,000 rows
    /// wraps each row's text once, not once per width a stack tried.
    @Test func showingAThousandRowsMeasuresEachRowOnce() async throws {
        let d = try await queue(rows: 1_000)
        for display in Display.all {
            let context = d.context(display)
            _ = context.layout(d.view.body(), in: display.size)
            #expect(context.rowHeights.measuredCount == 1_000, "\(display)")
        }
    }
}
