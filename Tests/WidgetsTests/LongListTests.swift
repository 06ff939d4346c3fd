import Graphics
import Testing
import Widgets

/// A list of hundreds of rows: flinging it, and drawing only what shows.
/// Touch times and frame times are given explicitly; nothing here waits.
@Suite struct LongListTests {
    let size = Size(width: 800, height: 480)

    static func rows(_ count: Int) -> [ListRow] {
        (0..<count).map { index in
            ListRow(identifier: "long.\(index)", title: "Deposit \(10 + index).00 EUR", subtitle: "DE54 5001 0517 0426 3971 58 · 08:02",
                    badge: Badge("Queued"))
        }
    }

    static func list(_ count: Int) -> List { List(identifier: "long", label: "Queue", rows: rows(count)) }

    func layout(_ count: Int, _ state: InteractionState = InteractionState()) -> LayoutNode {
        makeContext(state: state).layout(Self.list(count), in: size)
    }

    /// A finger dragged up by `distance` pixels over `seconds` in 10 ms steps, lifted while still moving.
    func swipe(_ tracker: inout TouchTracker, _ state: inout InteractionState, on tree: LayoutNode, up distance: Int,
               over seconds: Double, at start: Double = 0) {
        let from = Point(x: 400, y: 400)
        tracker.down(at: from, time: start, in: tree, state: &state)
        let steps = max(1, Int((seconds / 0.01).rounded()))
        for step in 1...steps {
            let point = Point(x: from.x, y: from.y - distance * step / steps)
            if step == steps {
                _ = tracker.up(at: point, time: start + seconds, state: &state)
            } else {
                tracker.move(to: point, time: start + seconds * Double(step) / Double(steps), state: &state)
            }
        }
    }

    /// Frames every 16 ms until the fling stops; the number of frames it took.
    @discardableResult
    func runFling(_ tracker: inout TouchTracker, _ state: inout InteractionState, from start: Double = 1) -> Int {
        var frames = 0
        while tracker.isAnimating && frames < 10_000 {
            tracker.step(now: start + Double(frames) * 0.016, state: &state)
            frames += 1
        }
        return frames
    }

    @Test func aFasterSwipeFlingsFurtherAndThenStops() {
        let tree = layout(200)
        var distances: [Int] = []
        for seconds in [0.2, 0.1, 0.05] {
            var tracker = TouchTracker(scale: .one)
            var state = InteractionState()
            swipe(&tracker, &state, on: tree, up: 150, over: seconds)
            #expect(state.scrollOffsets["long"] == 150, "the drag itself moves the list by its own length")
            #expect(tracker.isAnimating, "a lift at \(150 / seconds) px/s flings")
            let frames = runFling(&tracker, &state)
            #expect(!tracker.isAnimating && frames < 10_000, "the fling slows to a stop")
            distances.append((state.scrollOffsets["long"] ?? 0) - 150)
        }
        #expect(distances[0] > 0 && distances[0] < distances[1] && distances[1] < distances[2], "\(distances)")
        // Exponential decay: the whole fling is the lift speed times the time constant, give or take the stop.
        #expect(abs(Double(distances[2]) - 3_000 * 0.325) < 30, "\(distances)")
    }

    @Test func aFingerThatRestedBeforeLiftingDoesNotFling() {
        let tree = layout(200)
        var tracker = TouchTracker(scale: .one)
        var state = InteractionState()
        tracker.down(at: Point(x: 400, y: 400), time: 0, in: tree, state: &state)
        tracker.move(to: Point(x: 400, y: 300), time: 0.05, state: &state)
        _ = tracker.up(at: Point(x: 400, y: 300), time: 0.3, state: &state)
        #expect(!tracker.isAnimating)
        #expect(state.scrollOffsets["long"] == 100)
    }

    @Test func aFlingStopsAtEitherEnd() {
        let tree = layout(30)
        let list = tree.node(withIdentifier: "long")!
        guard case .scroll(let contentHeight) = list.interaction else {
            Issue.record("list is not scrollable")
            return
        }
        let maxOffset = contentHeight - list.frame.height
        var tracker = TouchTracker(scale: .one)
        var state = InteractionState()
        swipe(&tracker, &state, on: tree, up: 200, over: 0.02)
        runFling(&tracker, &state)
        #expect(state.scrollOffsets["long"] == maxOffset, "thrown hard toward the end, it stops at the last row")
        swipe(&tracker, &state, on: tree, up: -200, over: 0.02, at: 100)
        runFling(&tracker, &state, from: 200)
        #expect(state.scrollOffsets["long"] == 0, "and thrown back, at the first")
    }

    @Test func aTouchStopsAFlingAndTapsNothing() {
        let tree = layout(200)
        var tracker = TouchTracker(scale: .one)
        var state = InteractionState()
        swipe(&tracker, &state, on: tree, up: 150, over: 0.05)
        for frame in 0..<5 { tracker.step(now: 1 + Double(frame) * 0.016, state: &state) }
        #expect(tracker.isAnimating)
        let caught = state.scrollOffsets["long"]
        let moved = layout(200, state)
        let row = moved.hitPath(at: Point(x: 400, y: 200)).last { $0.role == .row }!
        tracker.down(at: Point(x: 400, y: 200), time: 10, in: moved, state: &state)
        #expect(!tracker.isAnimating)
        #expect(state.pressed == nil, "the finger that catches the list does not press \(row.identifier!)")
        tracker.step(now: 2, state: &state)
        #expect(state.scrollOffsets["long"] == caught)
        #expect(tracker.up(at: Point(x: 400, y: 200), time: 10.1, state: &state) == nil)
    }

    @Test func aJumpToTheBottomShowsTheLastRowAndDraggingGoesOnFromThere() {
        var state = InteractionState()
        state.scroll("long", to: .bottom)
        let tree = layout(200, state)
        let list = tree.node(withIdentifier: "long")!
        #expect(tree.node(withIdentifier: "long.199")!.frame.maxY == list.frame.maxY)
        var tracker = TouchTracker(scale: .one)
        tracker.down(at: Point(x: 400, y: 200), time: 0, in: tree, state: &state)
        tracker.move(to: Point(x: 400, y: 260), time: 0.5, state: &state)
        if case .scroll(let contentHeight) = list.interaction {
            #expect(state.scrollOffsets["long"] == contentHeight - list.frame.height - 60, "a drag down moves back from the end at once")
        } else {
            Issue.record("the 200-row list does not scroll: \(list.interaction)")
        }
    }

    @Test func aThousandRowsBuildPaintsOnlyForTheRowsInView() {
        for offset in [0, 40_000] {
            var state = InteractionState()
            state.scrollOffsets["long"] = offset
            let tree = layout(1_000, state)
            let list = tree.node(withIdentifier: "long")!
            var rows = 0
            var drawn: [LayoutNode] = []
            tree.forEach { node in
                if node.role == .row {
                    rows += 1
                    if !node.paints.isEmpty || !node.children.isEmpty { drawn.append(node) }
                }
            }
            #expect(rows == 1_000, "every row is still listed, for QA")
            #expect(drawn.allSatisfy { $0.frame.intersects(list.frame) })
            #expect(drawn.count >= list.frame.height / 80 && drawn.count <= list.frame.height / 56 + 2,
                    "\(drawn.count) rows drawn in a \(list.frame.height) px list")
        }
    }

    @Test func aThousandRowsAreMeasuredOnceNotOnEveryFrame() {
        var context = makeContext()
        let list = Self.list(1_000)
        _ = context.layout(list, in: size)
        #expect(context.rowHeights.measuredCount == 1_000)
        for offset in [0, 700, 40_000] {
            context.state.scrollOffsets["long"] = offset
            _ = context.layout(list, in: size)
        }
        #expect(context.rowHeights.measuredCount == 1_000, "scrolling measures no row again")
        _ = context.layout(list, in: Size(width: 480, height: 800))
        #expect(context.rowHeights.measuredCount == 2_000, "a new width measures every row once more")
    }

    /// The heights of the last list are kept whole for the next frame; a list whose rows
    /// changed (as many rows, one of them now two lines high) must not get them.
    @Test func aChangedRowIsMeasuredAgainThoughTheCountIsTheSame() throws {
        let context = makeContext()
        let before = context.layout(Self.list(1_000), in: size)
        var rows = Self.rows(1_000)
        rows[500].subtitle = String(repeating: "A long note the operator typed, ", count: 6)
        let after = context.layout(List(identifier: "long", label: "Queue", rows: rows), in: size)
        let node = { (tree: LayoutNode) in try #require(tree.node(withIdentifier: "long")) }
        guard case .scroll(let oldHeight) = try node(before).interaction, case .scroll(let newHeight) = try node(after).interaction else {
            Issue.record("the list does not scroll")
            return
        }
        #expect(newHeight > oldHeight, "row 500 wraps now, so the list is taller")
        #expect(try #require(after.node(withIdentifier: "long.501")).frame.minY > (try #require(before.node(withIdentifier: "long.501"))).frame.minY)
    }

    /// A screen around a long list: a label above, a header scrolling with the rows, Top and Oldest
    /// under them, and a scroll area beside it; mirrored when it reads right to left.
    static func screen(_ count: Int, rows: ListRows? = nil) -> any Widget {
        HStack(spacing: 8, [
            Flexible(2, VStack(spacing: 8, [
                Label("Queue", style: .title, identifier: "title"),
                Flexible(1, List(identifier: "long", label: "Queue", header: Label("All deposits", identifier: "long.header"),
                                 rows: rows ?? ListRows(Self.rows(count)),
                                 overflowControls: HStack(spacing: 12, [Spacer(), Button("Top", identifier: "top"),
                                                                        Button("Oldest", identifier: "bottom")]))),
            ])),
            Flexible(1, ScrollArea(identifier: "notes", label: "Notes", VStack(spacing: 10, (0..<30).map { index in
                Label("Note \(index)", identifier: "note.\(index)")
            }))),
        ])
    }

    /// A drag lays out only the list it moves, into the kept tree: at every offset that must be
    /// exactly the tree the whole screen's layout makes, and the damage is the list's viewport.
    @Test(arguments: [LayoutDirection.leftToRight, .rightToLeft])
    func aListLaidOutAloneIsTheWholeScreensLayout(_ direction: LayoutDirection) throws {
        var context = makeContext()
        context.direction = direction
        let screen = Self.screen(300)
        var kept = context.layout(screen, in: size)
        let index = ScrollableNodes(kept)
        let viewport = try #require(kept.node(withIdentifier: "long")).frame
        let notes = try #require(kept.node(withIdentifier: "notes")).frame
        context.state.pressed = "long.3"
        for (list, offset) in [("long", 1), ("long", 12), ("notes", 40), ("long", 700), ("long", 5_000), ("notes", 9), ("long", 40_000),
                               ("long", Int(Int32.max)), ("long", 0)] {
            context.state.scrollOffsets[list] = offset
            try #require(index.canRelayout([list]))
            let damage = index.relayout([list], in: &kept, context)
            let whole = context.layout(screen, in: size)
            #expect(kept == whole, "\(list) at \(offset)")
            #expect(kept.accessibilityNode == whole.accessibilityNode, "\(list) at \(offset)")
            #expect(damage == [list == "long" ? viewport : notes])
        }
        #expect(!index.canRelayout(["no.such.list"]), "a list that is not there is laid out with the screen")
    }

    /// Only the rows in view are nodes of the tree; the others are made when accessibility asks.
    @Test func aThousandRowsBuildOnlyTheRowsInViewAndAccessibilityStillListsEvery() throws {
        var state = InteractionState()
        state.scrollOffsets["long"] = 40_000
        let tree = layout(1_000, state)
        let list = try #require(tree.node(withIdentifier: "long"))
        let built = list.children.filter { $0.role == .row }
        #expect(!built.isEmpty && built.count <= list.frame.height / 56 + 2, "\(built.count) row nodes built")
        #expect(built.allSatisfy { $0.frame.intersects(list.frame) })
        let rows = tree.accessibilityNode.children.filter { $0.role == .row }
        #expect(rows.map(\.identifier) == (0..<1_000).map { "long.\($0)" })
        #expect(rows.filter(\.visible).map(\.identifier) == built.map(\.identifier))
        let far = try #require(rows.first)
        #expect(far.label == "Deposit 10.00 EUR, Queued, DE54 5001 0517 0426 3971 58 · 08:02" && far.frame.y < list.frame.minY - 39_000)
    }

    /// Rows are asked for by index: while the source stays equal, a new layout (a new body built
    /// from the same view model) asks only for the rows it shows, not for every row's height again.
    @Test func aListFromTheSameSourceAsksOnlyForTheRowsItShows() throws {
        let asked = Asked()
        let source = Self.rows(1_000)
        func rows() -> ListRows { ListRows(count: source.count, from: source) { rows, index in asked.note(index); return rows[index] } }
        var context = makeContext()
        context.state.scrollOffsets["long"] = 20_000
        _ = context.layout(Self.screen(0, rows: rows()), in: size)
        #expect(asked.count >= 1_000, "the first layout measures every row")
        asked.reset()
        let tree = context.layout(Self.screen(0, rows: rows()), in: size)
        let built = try #require(tree.node(withIdentifier: "long")).children.filter { $0.role == .row }.count
        #expect(asked.count > 0 && asked.count <= built + 8, "\(asked.count) rows asked for to show \(built)")
    }
}

/// Which rows a list asked for (a class, since the row function must be Sendable).
private final class Asked: @unchecked Sendable {
    // Touched only by the test's own thread, during layout.
    private(set) var count = 0
    func note(_ index: Int) { count += 1 }
    func reset() { count = 0 }
}
