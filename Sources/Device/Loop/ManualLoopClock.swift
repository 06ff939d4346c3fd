/// A clock that moves only when it is told to, for tests of the loop and
/// of everything that runs timers on it.
///
/// ``advance(by:)`` runs every timer that falls due within the step, in
/// deadline order (those due together in the order they were scheduled),
/// each with ``now`` set to its own deadline, synchronously on the main
/// actor. A timer is never run before its deadline, and one scheduled by a
/// handler runs within the same step if it falls due in it.
@MainActor
public final class ManualLoopClock: LoopClock {
    public private(set) var now: MonotonicInstant
    private var timers: [ManualTimer] = []
    private var scheduled = 0

    /// - Parameter now: where the clock starts; any fixed instant serves.
    public init(now: MonotonicInstant = MonotonicInstant(seconds: 1000, microseconds: 0)) {
        self.now = now
    }

    public func schedule(after delay: Duration, repeating interval: Duration?,
                         _ handler: @escaping @MainActor () -> Void) -> any LoopCancellable {
        precondition(delay >= .zero, "a timer in the past: \(delay)")
        precondition(interval.map { $0 > .zero } ?? true, "a repeating timer needs a positive interval, not \(interval!)")
        let timer = ManualTimer(deadline: now.advanced(by: delay), interval: interval, order: nextOrder(), handler: handler)
        timers.append(timer)
        return timer
    }

    /// Moves the clock on by `duration`, running the timers that fall due on the way.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "time does not go back: \(duration)")
        let end = now.advanced(by: duration)
        while let timer = nextDue(by: end) {
            now = timer.deadline
            if let interval = timer.interval {
                timer.deadline = timer.deadline.advanced(by: interval)
                timer.order = nextOrder()
            } else {
                timer.cancel()
            }
            timer.handler()
        }
        now = end
        timers.removeAll { $0.isCancelled }
    }

    /// Timers scheduled and neither fired (if one-shot) nor cancelled.
    public var pendingTimers: Int { timers.filter { !$0.isCancelled }.count }

    private func nextDue(by end: MonotonicInstant) -> ManualTimer? {
        timers.filter { !$0.isCancelled && $0.deadline <= end }
            .min { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
    }

    private func nextOrder() -> Int {
        scheduled += 1
        return scheduled
    }
}

/// One timer of a ``ManualLoopClock``.
private final class ManualTimer: LoopCancellable {
    var deadline: MonotonicInstant
    let interval: Duration?
    /// Breaks ties between timers due at the same instant: first scheduled, first run.
    var order: Int
    let handler: @MainActor () -> Void
    private(set) var isCancelled = false

    init(deadline: MonotonicInstant, interval: Duration?, order: Int, handler: @escaping @MainActor () -> Void) {
        self.deadline = deadline
        self.interval = interval
        self.order = order
        self.handler = handler
    }

    func cancel() { isCancelled = true }
}

extension MonotonicInstant {
    /// This instant moved on by `duration`, saturating.
    public func advanced(by duration: Duration) -> MonotonicInstant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? (duration < .zero ? .min : .max) : sum)
    }
}
