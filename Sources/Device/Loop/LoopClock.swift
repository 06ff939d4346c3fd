import Dispatch

/// Where the ``EventLoop`` reads the time and runs its timers.
///
/// The terminal runs on ``MonotonicLoopClock``: CLOCK_MONOTONIC and
/// dispatch timer sources on the main queue. Tests run on
/// ``ManualLoopClock``, whose time moves only when the test advances it, as
/// swift-nio's `EmbeddedEventLoop` does: a timer fires exactly when the test
/// says, and nothing waits on wall time.
@MainActor
public protocol LoopClock: AnyObject {
    /// The time now, on the clock an input event's kernel stamp and a page
    /// flip share.
    var now: MonotonicInstant { get }

    /// Calls `handler` on the main actor once `delay` has passed, then every
    /// `interval` if one is given, until the returned timer is cancelled.
    ///
    /// - Parameters:
    ///   - delay: from ``now`` to the first call; not negative.
    ///   - interval: between later calls; nil for a one-shot timer, which is
    ///     cancelled once it has fired. Greater than zero.
    func schedule(after delay: Duration, repeating interval: Duration?,
                  _ handler: @escaping @MainActor () -> Void) -> any LoopCancellable
}

/// A timer or watch the loop holds until it is cancelled.
public protocol LoopCancellable: AnyObject {
    func cancel()
    var isCancelled: Bool { get }
}

/// The terminal's clock: CLOCK_MONOTONIC, and timers as dispatch sources on
/// the main queue.
@MainActor
public final class MonotonicLoopClock: LoopClock {
    public init() {}

    public var now: MonotonicInstant { .now() }

    public func schedule(after delay: Duration, repeating interval: Duration?,
                         _ handler: @escaping @MainActor () -> Void) -> any LoopCancellable {
        let source = DispatchSource.makeTimerSource(queue: .main)
        if let interval {
            source.schedule(deadline: .now() + delay.dispatchInterval, repeating: interval.dispatchInterval, leeway: .milliseconds(1))
            source.setEventHandler { MainActor.assumeIsolated { handler() } }
        } else {
            source.schedule(deadline: .now() + delay.dispatchInterval, repeating: .never)
            let box = SourceBox()
            source.setEventHandler {
                MainActor.assumeIsolated {
                    handler()
                    box.source?.cancel()
                }
            }
            box.source = source
        }
        source.resume()
        return DispatchHandle(source)
    }
}

/// A dispatch source (a timer, a descriptor or signal watch) as the loop holds it.
final class DispatchHandle: LoopCancellable {
    let source: any DispatchSourceProtocol
    init(_ source: any DispatchSourceProtocol) { self.source = source }
    func cancel() { source.cancel() }
    var isCancelled: Bool { source.isCancelled }
}

/// Lets a one-shot timer cancel itself.
private final class SourceBox: @unchecked Sendable {
    // Touched only on the main queue: at creation and in the event handler.
    var source: (any DispatchSourceTimer)?
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow || overflowAgain ? (seconds < 0 ? .min : .max) : sum
    }

    var dispatchInterval: DispatchTimeInterval { .nanoseconds(Int(nanoseconds)) }
}
