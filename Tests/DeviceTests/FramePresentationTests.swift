import Glibc
import Graphics
import Testing
@testable import Device

/// The event loop calls a frame presented only once it is on the panel, which
/// is what the terminal's READY waits for: when `present` returns for
/// displays that show a frame at once, when the page-flip event arrives for
/// one that flips like DRM, never for a present that failed.
@MainActor
@Suite("Frames count as presented when they reach the panel")
struct FramePresentationTests {
    @Test func offscreenFrameIsShownBeforeItCountsAsPresented() {
        let display = OffscreenDisplay(physicalSize: Size(width: 320, height: 200))
        let loop = EventLoop()
        var shownAtHook: [Int] = []
        loop.onFramePresented = { _ in shownAtHook.append(display.presentedFrames) }
        loop.attach(display: display) { surface, _ in surface.bounds }
        loop.setNeedsDisplay()
        loop.renderIfReady()
        #expect(shownAtHook == [1])
        #expect(loop.framesPresented == 1)
    }

    @Test func flippedFrameIsPresentedWhenTheFlipCompletesNotWhenQueued() {
        let display = FlippingDisplay()
        let loop = EventLoop()
        var completedAtHook: [Int] = []
        loop.onFramePresented = { _ in completedAtHook.append(display.completedFlips) }
        loop.attach(display: display) { surface, _ in surface.bounds }

        loop.setNeedsDisplay()
        loop.renderIfReady()
        #expect(display.queuedFlips == 1)
        #expect(completedAtHook.isEmpty, "queued, not yet on the panel")

        // A wakeup without a completed flip (or a frame asked for meanwhile) changes nothing.
        loop.setNeedsDisplay()
        loop.displayReadable()
        #expect(completedAtHook.isEmpty)
        #expect(display.queuedFlips == 1, "no second frame while the first flip is pending")

        display.kernelCompletesFlip()
        loop.displayReadable()
        #expect(completedAtHook == [1])
        #expect(display.queuedFlips == 2, "the frame asked for meanwhile follows the flip")

        display.kernelCompletesFlip()
        loop.displayReadable()
        #expect(completedAtHook == [1, 2])
        #expect(loop.framesPresented == 2)
    }

    /// The loop hands on the flip's own time (the vblank the kernel stamped),
    /// not when it got round to reading the event: input-to-panel latency
    /// (`log_latency`) is measured to it.
    @Test func presentedTimeIsTheFlipsKernelTime() {
        let display = FlippingDisplay()
        let loop = EventLoop()
        var times: [MonotonicInstant] = []
        loop.onFramePresented = { times.append($0) }
        loop.attach(display: display) { surface, _ in surface.bounds }
        loop.setNeedsDisplay()
        loop.renderIfReady()
        display.kernelCompletesFlip(at: MonotonicInstant(seconds: 41, microseconds: 16_667))
        loop.displayReadable()
        loop.setNeedsDisplay()
        loop.renderIfReady()
        display.kernelCompletesFlip(at: MonotonicInstant(seconds: 41, microseconds: 33_334))
        loop.displayReadable()
        #expect(times == [MonotonicInstant(nanoseconds: 41_016_667_000), MonotonicInstant(nanoseconds: 41_033_334_000)])
        #expect(times.map(\.description) == ["41.016667", "41.033334"])
    }

    /// Displays without flips stamp the frame when `present` returned, on the same clock.
    @Test func offscreenPresentedTimeIsTheMonotonicClockAtPresent() {
        let display = OffscreenDisplay(physicalSize: Size(width: 320, height: 200))
        let loop = EventLoop()
        var times: [MonotonicInstant] = []
        loop.onFramePresented = { times.append($0) }
        loop.attach(display: display) { surface, _ in surface.bounds }
        let before = MonotonicInstant.now()
        loop.setNeedsDisplay()
        loop.renderIfReady()
        let after = MonotonicInstant.now()
        #expect(times.count == 1)
        #expect(times.allSatisfy { before <= $0 && $0 <= after }, "\(before) <= \(times) <= \(after)")
        #expect(times.first == display.lastPresentedAt)
    }

    @Test func failedPresentIsNeverPresented() {
        let display = FlippingDisplay()
        display.refusesFlips = true
        let loop = EventLoop()
        var presented = 0
        loop.onFramePresented = { _ in presented += 1 }
        loop.attach(display: display) { surface, _ in surface.bounds }
        loop.setNeedsDisplay()
        loop.renderIfReady()
        loop.displayReadable()
        #expect(presented == 0)
    }
}

/// A display whose flips complete later, as DRM's do: `present` queues the
/// flip, and the test plays the kernel's completion event.
private final class FlippingDisplay: Display {
    /// Never readable and never closed: the loop watches it, the test calls
    /// `displayReadable()` itself, so no dispatch source outlives its descriptor.
    private static let quietDescriptor: Int32 = {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe: \(errno)")
        return ends[0]
    }()

    let transform = DisplayTransform(rotation: .degrees0, physicalSize: Size(width: 320, height: 200))
    let backBuffer = Surface(size: Size(width: 320, height: 200))
    var refusesFlips = false
    private(set) var queuedFlips = 0
    private(set) var completedFlips = 0
    private(set) var lastPresentedAt: MonotonicInstant?
    private var flipPending = false
    private var completionArrived: MonotonicInstant?

    var name: String { "flipping test display" }
    var size: Size { transform.logicalSize }
    var staleRegion: Rect { .zero }
    var isReadyForFrame: Bool { !flipPending }
    var readableDescriptor: Int32? { Self.quietDescriptor }

    func present(damage: Rect) throws(DisplayError) {
        if refusesFlips { throw DisplayError(kind: .system("drmModePageFlip"), path: name, errno: .invalidArgument) }
        flipPending = true
        queuedFlips += 1
    }

    func handleReadable() throws(DisplayError) {
        if let completionArrived {
            self.completionArrived = nil
            flipPending = false
            lastPresentedAt = completionArrived
            completedFlips += 1
        }
    }

    /// The kernel's completion event, stamped `time` (the vblank), as DRM stamps it.
    func kernelCompletesFlip(at time: MonotonicInstant = MonotonicInstant(nanoseconds: 1)) { completionArrived = time }
}

/// The loop holds a watch or timer until it is cancelled, and no longer.
@MainActor
@Suite struct EventLoopSourceTests {
    @Test func firedOneShotTimersAreLetGo() {
        let clock = ManualLoopClock()
        let loop = EventLoop(clock: clock)
        var fired = 0
        for _ in 0..<200 { loop.after(milliseconds: 0) { fired += 1 } }
        clock.advance(by: .zero)
        #expect(fired == 200)
        let watch = loop.watch(STDIN_FILENO) {}
        watch.cancel()
        loop.after(milliseconds: 60_000) {}
        // The last timer, not yet fired; the 200 that fired and the cancelled watch are gone.
        #expect(loop.heldSources == 1)
    }

    /// The terminal's own clock: a dispatch timer that fired cancels itself,
    /// so the loop lets it go. This one waits on the real clock, since the
    /// dispatch source is what is under test.
    @Test func theMonotonicClocksFiredTimersCancelThemselves() async throws {
        let loop = EventLoop()
        var fired = 0
        for _ in 0..<20 { loop.after(milliseconds: 0) { fired += 1 } }
        for _ in 0..<500 where fired < 20 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(fired == 20)
        loop.after(milliseconds: 60_000) {}
        #expect(loop.heldSources == 1)
    }
}

