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

    /// Called with every change of problem (nil when solved, and at the
    /// first answer of the run), on the caller's thread.
    public func observe(_ observer: @escaping @Sendable (SyncProblem?) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Called with the bank's time (its `Date` header) whenever an answer
    /// proves to be the bank's: the trusted clock's reference.
    public func observeBankTime(_ observer: @escaping @Sendable (Date) -> Void) {
        state.withLock { $0.timeObservers.append(observer) }
    }

    /// The bank answered a request in the contract's shape; `date` is that
    /// answer's own `Date` header (see ``AnswerDates``), the trusted clock's
    /// reference. Nothing is kept between requests, so one request's date
    /// can never be credited to another's answer.
    public func noteBankAnswer(date: Date? = nil) {
        let (changed, observers, timeObservers) = state.withLock { state in
            // The first answer of a run turns "not yet known" into online, as
            // an answer after a failure does: observers hear of both (the
            // status bar said Offline after READY until something else changed).
            let changed = state.problem != nil || state.lastBankAnswer == nil
            state.lastBankAnswer = .now
            state.problem = nil
            return (changed, state.observers, state.timeObservers)
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

/// The `Date` headers of the answers one exchange received, in its own
/// task: a request made beside it (a captive portal's answer to the health
/// probe while the drain hears the bank) cannot mix its date in. The date
/// reaches the trusted clock only once the exchange proved the answers to
/// be the bank's (``HostReachability/noteBankAnswer(date:)``).
final class AnswerDates: Sendable {
    @TaskLocal static var current: AnswerDates?
    private let newest = Mutex<Date?>(nil)

    /// The date of the last answer received in this exchange.
    var latest: Date? { newest.withLock { $0 } }

    func received(_ date: Date?) {
        newest.withLock { $0 = date }
    }
}
