import Device
import FoundationEssentials
import Graphics
import TellerFeatures
import TellerRuntime
import TellerUI
import Testing
import Widgets

/// The terminal's own path, from a kernel-format event on a pipe in the
/// real main loop to the frame in the scanout buffer: a press is drawn
/// without a new layout, and every frame shows what a full rendering of
/// the same state shows.
@MainActor
@Suite struct RuntimeFrameTests {
    @Test func aPressRedrawsTheKeyWithoutLayingOutAndEveryFrameIsWhole() async throws {
        let d = try await Scenario.amount.make()
        let (runtime, display, touch) = try d.startedRuntime(on: .large)
        try await until { display.presentedFrames > 0 && d.coordinator.current.screenName == "amount" }
        let key = try #require(runtime.tree?.visibleFrame(ofIdentifier: "amount.keys.5", within: display.bounds))
        // Both scanout buffers drawn whole once, so what follows is damage only: a tap on
        // another key, then a press on 9 that slides off it, so that the back buffer's stale
        // part (the bounding box of the last frames' damage) is key 9 and not key 5.
        let one = try #require(runtime.tree?.visibleFrame(ofIdentifier: "amount.keys.1", within: display.bounds))
        let nine = try #require(runtime.tree?.visibleFrame(ofIdentifier: "amount.keys.9", within: display.bounds))
        _ = try touch.down(one.center)
        try await until { isShown("amount.keys.1", pressed: true, runtime) }
        try touch.up()
        try await until { isShown("amount.keys.1", pressed: false, runtime) }
        _ = try touch.down(nine.center)
        try await until { isShown("amount.keys.9", pressed: true, runtime) }
        try touch.move(Point(x: nine.center.x, y: 2))
        try await until { isShown("amount.keys.9", pressed: false, runtime) }
        try touch.up()
        await d.coordinator.settle()
        try await quiet(display)
        #expect(!key.intersects(display.staleRegion), "the stale part \(display.staleRegion) of the back buffer covers key 5 \(key)")

        let layouts = runtime.layoutCount
        _ = try touch.down(key.center)
        try await until { isShown("amount.keys.5", pressed: true, runtime) }
        try await quiet(display)
        #expect(runtime.layoutCount == layouts, "the press laid the screen out again")
        try expectScanoutIsWhole(display, runtime)

        try touch.up()
        try await until { isShown("amount.keys.5", pressed: false, runtime) }
        await d.coordinator.settle()
        try await quiet(display)
        #expect(runtime.layoutCount > layouts, "the digit typed must lay the amount out again")
        try expectScanoutIsWhole(display, runtime)
    }

    /// A finger dragging the long queue, then flinging it: each move and each fling frame lays out
    /// only the list, into the kept tree, and the panel and the tree are what a new layout of the
    /// whole screen at that offset gives.
    ///
    /// The fling's frames come from a timer on the loop's clock, here a manual one: the test
    /// moves it on 16 ms at a time and draws each frame itself, so no frame is missed or waited for.
    @Test func aDragLaysOutOnlyTheListAndEveryFrameIsWhole() async throws {
        let d = try await Scenario.queueLong.make()
        let clock = ManualLoopClock()
        let (runtime, display, touch) = try d.startedRuntime(on: .large, clock: clock)
        try await until { display.presentedFrames > 0 && runtime.tree?.node(withIdentifier: QueueScreen.Control.list) != nil }
        let list = try #require(runtime.tree?.visibleFrame(ofIdentifier: QueueScreen.Control.list, within: display.bounds))
        _ = try touch.down(Point(x: list.midX, y: list.maxY - 10))
        try await until { runtime.layout.state.pressed != nil }
        try await quiet(display)
        let layouts = runtime.layoutCount
        var y = list.maxY - 10
        for step in 1...12 {
            y -= 25
            try touch.move(Point(x: list.midX, y: y))
            try await until { runtime.layout.state.scrollOffsets[QueueScreen.Control.list] ?? 0 > 0 && runtime.scrollLayoutCount >= step }
            try await quiet(display)
            try expectTreeIsTheLayout(runtime)
            if step % 4 == 0 { try expectScanoutIsWhole(display, runtime) }
        }
        #expect(runtime.layoutCount == layouts, "a drag laid the whole screen out again")
        let dragged = runtime.layout.state.scrollOffsets[QueueScreen.Control.list] ?? 0
        // Lifted while moving: the fling moves the list on frame after frame, the same way.
        // The lift's speed is measured on the events' kernel stamps, so the last two moves are
        // 20 ms apart in wall time (about 1000 px/s); the lift comes through the pipe, and its
        // frame asks for the fling's first timer. A busy wait, not a sleep: under load (the
        // arm64 suite under qemu) a sleep ended past the tracker's 100 ms speed window, and
        // nothing flung.
        y -= 20
        try touch.move(Point(x: list.midX, y: y))
        let moved = ContinuousClock.now
        while ContinuousClock.now - moved < .milliseconds(20) {}
        y -= 20
        try touch.move(Point(x: list.midX, y: y))
        try touch.up()
        try await until { clock.pendingTimers > 0 }
        var flingFrames = 0
        while runtime.isAnimating && flingFrames < 1000 {
            let frames = display.presentedFrames
            clock.advance(by: .milliseconds(15))
            runtime.loop.renderIfReady()
            #expect(display.presentedFrames == frames, "a fling frame drawn before its 16 ms were up")
            clock.advance(by: .milliseconds(1))
            runtime.loop.renderIfReady()
            #expect(display.presentedFrames == frames + 1, "no fling frame 16 ms after the last")
            flingFrames += 1
        }
        #expect(!runtime.isAnimating && flingFrames > 1, "the fling ran \(flingFrames) frames")
        #expect(runtime.layout.state.scrollOffsets[QueueScreen.Control.list] ?? 0 > dragged + 40, "the fling moved the list on past the finger")
        #expect(clock.pendingTimers == 0, "a stopped fling asks for no more frames")
        #expect(runtime.layoutCount == layouts, "the fling laid the whole screen out again")
        try expectTreeIsTheLayout(runtime)
        try expectScanoutIsWhole(display, runtime)
    }

    /// No view model asks for a redraw: what changes a screen after its frame, from another
    /// task (a digit typed, a sync event, the clock's tick), is state that frame read, and the
    /// runtime sees the change at once (a new state revision, a frame asked for) and draws it.
    @Test func aChangeFromATaskAfterTheFrameReachesThePanel() async throws {
        let d = try await Scenario.signIn.make()
        let (runtime, display, _) = try d.startedRuntime(on: .small)
        let signIn = try #require(d.coordinator.current as? SignInViewModel)
        try await until { display.presentedFrames > 0 }
        try await quiet(display)

        func changed(by change: @escaping @MainActor () async -> Void, shows identifier: String, _ text: String,
                     sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let revision = runtime.stateRevision
            let frames = display.presentedFrames
            await Task { @MainActor in await change() }.value
            #expect(runtime.stateRevision > revision, "the change asked for no frame", sourceLocation: sourceLocation)
            try await until({ display.presentedFrames > frames && runtime.tree?.node(withIdentifier: identifier)?.allText.contains(text) == true },
                            sourceLocation: sourceLocation)
            try await quiet(display)
        }
        try await changed(by: { signIn.press(digit: "7") }, shows: "sign-in.operator", "7")
        try await changed(by: {
            await d.harness.sync.setOnline(false)
            await d.harness.sync.send(.offline)
            await d.coordinator.settle()
            await d.coordinator.refreshStatus()
        }, shows: "status.connection", "Offline")
        let time = d.coordinator.dependencies.time
        let minuteBefore = time.clock(d.harness.clock.now())
        try await changed(by: {
            d.harness.clock.advance(60)
            d.coordinator.tick()
        }, shows: "status.clock", time.clock(d.harness.clock.now().addingTimeInterval(60)))
        #expect(runtime.tree?.node(withIdentifier: "status.clock")?.allText.contains(minuteBefore) == false, "the clock still shows \(minuteBefore)")
    }

    private func expectTreeIsTheLayout(_ runtime: TerminalRuntime, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tree = try #require(runtime.tree)
        let whole = runtime.layout.layout(runtime.view.body(), in: runtime.display.size)
        #expect(tree == whole, "the kept tree differs from a layout of the whole screen", sourceLocation: sourceLocation)
    }

    /// Whether the tree on the panel shows `identifier` pressed or released.
    private func isShown(_ identifier: String, pressed: Bool, _ runtime: TerminalRuntime) -> Bool {
        guard let node = runtime.tree?.node(withIdentifier: identifier), let press = node.press else { return false }
        return node.paints == press.paints(isPressed: pressed)
    }

    /// Waits for `condition` on the main actor, where the loop runs (10 s at most: a hang, not a timing).
    private func until(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for _ in 0..<2000 where !condition() {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(condition(), "waited 10 s in vain", sourceLocation: sourceLocation)
    }

    /// Lets frames asked for settle: no new frame for 30 ms.
    private func quiet(_ display: OffscreenDisplay) async throws {
        var frames = -1
        while frames != display.presentedFrames {
            frames = display.presentedFrames
            try await Task.sleep(for: .milliseconds(30))
        }
    }

    private func expectScanoutIsWhole(_ display: OffscreenDisplay, _ runtime: TerminalRuntime) throws {
        // A new layout of the same state, not the runtime's kept tree: that is what is being checked.
        let whole = Surface(size: display.size)
        runtime.renderer.render(runtime.layout.layout(runtime.view.body(), in: display.size), into: whole)
        var differing = 0
        for y in 0..<whole.height {
            for x in 0..<whole.width where display.scanout[x, y] != whole[x, y] { differing += 1 }
        }
        #expect(differing == 0, "\(differing) pixels of the scanout differ from a full rendering")
    }
}
