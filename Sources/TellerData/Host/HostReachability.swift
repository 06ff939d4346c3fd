import FoundationEssentials
import Synchronization
import TellerCore

/// What the last requests to the host showed: connectivity is evidence,
/// not belief. Any failed request marks the terminal offline (or the host
/// wrong) at once; only an answer from the bank marks it online again.
///
/// Elapsed time is measured on the monotonic clock, so a wall clock that
/// jumps cannot make an old answer look recent.
public final class HostReachability: Sendable {
    private struct State {
        var lastBankAnswer: ContinuousClock.Instant?
        var problem: SyncProblem?
        var observers: [@Sendable (SyncProblem?) -> Void] = []
        /// The `Date` of the answer being read, kept until it proves to be the bank's.
        var pendingDate: Date?
        var timeObservers: [@Sendable (Date) -> Void] = []
    }

    private let state = Mutex(State())
    private let wallClock: @Sendable () -> Date

    public init(wallClock: @escaping @Sendable () -> Date = Date.init) {
        self.wallClock = wallClock
    }

    /// True when the bank answered within the last `seconds` and nothing has failed since.
    public func bankAnswered(within seconds: TimeInterval) -> Bool {
        state.withLock { state in
            guard state.problem == nil, let last = state.lastBankAnswer else { return false }
            return ContinuousClock.now - last <= .milliseconds(Int64(seconds * 1000))
        }
    }

    /// True when the bank has answered and no request failed since.
    public var isOnline: Bool { state.withLock { $0.problem == nil && $0.lastBankAnswer != nil } }

    /// The current problem, or nil when the last request got the bank's answer.
    public var problem: SyncProblem? { state.withLock { $0.problem } }

    /// Called with every change of problem (nil when solved), on the caller's thread.
    public func observe(_ observer: @escaping @Sendable (SyncProblem?) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Called with the bank's time (its `Date` header) whenever an answer
    /// proves to be the bank's: the trusted clock's reference.
    public func observeBankTime(_ observer: @escaping @Sendable (Date) -> Void) {
        state.withLock { $0.timeObservers.append(observer) }
    }

    /// The `Date` header of the answer just received; it counts only if the
    /// answer turns out to be the bank's (a captive portal's date does not).
    func received(date: Date?) {
        state.withLock { $0.pendingDate = date }
    }

    /// The bank answered a request in the contract's shape.
    public func noteBankAnswer() {
        let (changed, observers, date, timeObservers) = state.withLock { state in
            state.lastBankAnswer = .now
            defer {
                state.problem = nil
                state.pendingDate = nil
            }
            return (state.problem != nil, state.observers, state.pendingDate, state.timeObservers)
        }
        if let date { for observer in timeObservers { observer(date) } }
        if changed { for observer in observers { observer(nil) } }
    }

    /// A request failed; the problem keeps its first `since` while its class stays the same.
    public func noteFailure(_ kind: SyncProblem.Kind, detail: String) {
        let now = wallClock()
        let (changed, problem, observers) = state.withLock { state in
            let since = state.problem?.kind == kind ? state.problem!.since : now
            let problem = SyncProblem(kind: kind, detail: detail, since: since)
            let changed = state.problem?.kind != kind
            state.problem = problem
            return (changed, problem, state.observers)
        }
        if changed { for observer in observers { observer(problem) } }
    }
}
