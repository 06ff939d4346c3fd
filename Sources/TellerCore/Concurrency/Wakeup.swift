import Synchronization

/// A background loop's pause: it sleeps until its next due time or until
/// someone wakes it, whichever comes first. The sync engine and the print
/// spooler each own one; an enqueue, a link change or "sync now" wakes them.
///
/// A wake that comes while the loop is busy is kept, so the next
/// ``sleep(for:)`` returns at once: work queued during a pass is never left
/// waiting for the timer. Cancelling the sleeping task wakes it too.
///
/// Thread-safe: ``wake()`` may be called from anywhere; one task sleeps at a time.
public final class Wakeup: Sendable {
    /// Why ``sleep(for:)`` returned.
    public enum Cause: Sendable, Equatable {
        /// ``wake()`` was called (during the sleep, or since the last one), or the task was cancelled.
        case woken
        /// The time passed.
        case timedOut
    }

    private struct State {
        /// A wake that came while nobody slept, kept for the next sleep.
        var pending = false
        var sleeper: (id: UInt64, continuation: CheckedContinuation<Cause, Never>)?
        /// The number of the latest sleep, and of the latest whose time passed.
        var sleeps: UInt64 = 0
        var timedOut: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Ends the current sleep, or the next one at once if none is under way.
    public func wake() {
        let sleeper = state.withLock { state -> CheckedContinuation<Cause, Never>? in
            guard let sleeper = state.sleeper else {
                state.pending = true
                return nil
            }
            state.sleeper = nil
            return sleeper.continuation
        }
        sleeper?.resume(returning: .woken)
    }

    /// Suspends until woken or until `delay` passes. A kept wake, or a
    /// delay of zero, returns at once.
    public func sleep(for delay: Duration) async -> Cause {
        let id: UInt64? = state.withLock { state in
            guard !state.pending else {
                state.pending = false
                return nil
            }
            state.sleeps += 1
            return state.sleeps
        }
        guard let id else { return .woken }
        guard delay > .zero else { return .timedOut }
        let timer = Task { [weak self] in
            // Cancelled when the sleep ended otherwise.
            guard (try? await Task.sleep(for: delay)) != nil else { return }
            self?.timeOut(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A wake or the timer may have come before the sleeper is in place.
                let now: Cause? = state.withLock { state in
                    if state.pending {
                        state.pending = false
                        return .woken
                    }
                    if state.timedOut == id { return .timedOut }
                    state.sleeper = (id, continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            wake()
        }
    }

    private func timeOut(_ id: UInt64) {
        let sleeper = state.withLock { state -> CheckedContinuation<Cause, Never>? in
            state.timedOut = id
            guard let sleeper = state.sleeper, sleeper.id == id else { return nil }
            state.sleeper = nil
            return sleeper.continuation
        }
        sleeper?.resume(returning: .timedOut)
    }
}
