import Graphics
import Testing
@testable import Device

/// The loop's timers on a clock the test moves: each fires at its deadline
/// and not a nanosecond before, in deadline order, and with the clock
/// reading its deadline while it runs.
@MainActor
@Suite struct ManualLoopClockTests {
    @Test func aTimerFiresAtItsDeadlineAndNotBefore() {
        let clock = ManualLoopClock()
        let loop = EventLoop(clock: clock)
        let start = clock.now
        var firedAt: [MonotonicInstant] = []
        loop.after(milliseconds: 16) { firedAt.append(clock.now) }
        clock.advance(by: .milliseconds(15))
        clock.advance(by: .nanoseconds(999_999))
        #expect(firedAt.isEmpty, "fired before its 16 ms were up")
        clock.advance(by: .nanoseconds(1))
        #expect(firedAt == [start.advanced(by: .milliseconds(16))])
        clock.advance(by: .seconds(10))
        #expect(firedAt.count == 1, "a one-shot timer fires once")
        #expect(clock.pendingTimers == 0)
    }

    @Test func timersFireInDeadlineOrderAndTiesInTheOrderScheduled() {
        let clock = ManualLoopClock()
        let loop = EventLoop(clock: clock)
        var fired: [String] = []
        loop.after(milliseconds: 30) { fired.append("c") }
        loop.after(milliseconds: 10) { fired.append("a") }
        loop.after(milliseconds: 20) { fired.append("b1") }
        loop.after(milliseconds: 20) { fired.append("b2") }
        // One step past all of them: still one at a time, in order.
        clock.advance(by: .milliseconds(100))
        #expect(fired == ["a", "b1", "b2", "c"])
    }

    @Test func aRepeatingTimerFiresOncePerPeriodUntilCancelled() {
        let clock = ManualLoopClock()
        let loop = EventLoop(clock: clock)
        var ticks = 0
        let token = loop.every(milliseconds: 1000) { ticks += 1 }
        clock.advance(by: .milliseconds(999))
        #expect(ticks == 0)
        clock.advance(by: .milliseconds(1))
        #expect(ticks == 1)
        clock.advance(by: .milliseconds(3500))
        #expect(ticks == 4)
        token.cancel()
        clock.advance(by: .seconds(10))
        #expect(ticks == 4)
        #expect(clock.pendingTimers == 0)
    }

    /// A handler that asks for another timer (an animation's next frame)
    /// gets it within the same step if it falls due there, at its own time.
    @Test func aTimerScheduledByAHandlerRunsInTheSameStep() {
        let clock = ManualLoopClock()
        let loop = EventLoop(clock: clock)
        let start = clock.now
        var frames: [MonotonicInstant] = []
        loop.after(milliseconds: 16) {
            frames.append(clock.now)
            loop.after(milliseconds: 16) {
                frames.append(clock.now)
                loop.after(milliseconds: 16) { frames.append(clock.now) }
            }
        }
        clock.advance(by: .milliseconds(40))
        #expect(frames == [start.advanced(by: .milliseconds(16)), start.advanced(by: .milliseconds(32))])
        #expect(clock.now == start.advanced(by: .milliseconds(40)))
        clock.advance(by: .milliseconds(8))
        #expect(frames.count == 3)
    }

    @Test func aCancelledTimerNeverFires() {
        let clock = ManualLoopClock()
        let loop = EventLoop(clock: clock)
        var fired = false
        loop.after(milliseconds: 5) { fired = true }.cancel()
        clock.advance(by: .seconds(1))
        #expect(!fired)
    }

    /// A display that shows frames at once stamps them with the loop's clock.
    @Test func anImmediateFrameIsStampedWithTheLoopsClock() {
        let clock = ManualLoopClock(now: MonotonicInstant(seconds: 77, microseconds: 5))
        let loop = EventLoop(clock: clock)
        var presented: [MonotonicInstant] = []
        loop.onFramePresented = { presented.append($0) }
        loop.attach(display: StamplessDisplay()) { surface, _ in surface.bounds }
        loop.setNeedsDisplay()
        loop.renderIfReady()
        #expect(presented == [MonotonicInstant(seconds: 77, microseconds: 5)])
    }
}

/// A display that shows a frame when `present` returns and keeps no time of its own.
private final class StamplessDisplay: Display {
    let transform = DisplayTransform(rotation: .degrees0, physicalSize: Size(width: 4, height: 4))
    let backBuffer = Surface(size: Size(width: 4, height: 4))
    var name: String { "stampless test display" }
    var size: Size { transform.logicalSize }
    var staleRegion: Rect { .zero }
    var isReadyForFrame: Bool { true }
    var readableDescriptor: Int32? { nil }
    var lastPresentedAt: MonotonicInstant? { nil }
    func present(damage: Rect) throws(DisplayError) {}
    func handleReadable() throws(DisplayError) {}
}
