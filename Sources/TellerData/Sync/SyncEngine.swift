import FoundationEssentials
import TellerCore

/// Drains the outbox to the host in queue order, each row under its own
/// idempotency key with its frozen bytes, and publishes what happens.
///
/// It wakes on enqueue, on a network link or address coming or going, on
/// ``syncNow()`` and on a timer; failed attempts back off exponentially
/// with full jitter and obey `Retry-After`.
///
/// Connectivity is what the host connection's last request showed
/// (``HostReachability``), whoever made it; the engine publishes each
/// change of problem once, not once per retry.
///
/// Its duties, one place each: this file starts, stops and schedules it
/// (a ``Wakeup`` between passes) and publishes; `SyncEngine+Pipeline.swift`
/// sends the rows and commits what they came to, with ``SendingCommit``;
/// ``SyncFailure`` classes a failure and ``RetryPolicy`` says how long it
/// waits; `SyncEngine+TillEvents.swift` sends till events; ``probeHealth()``
/// keeps the connectivity evidence current when nothing is due.
public actor SyncEngine: SyncStatusPort {
    let store: TellerStore
    let host: HostClient
    let policy: RetryPolicy
    var random = SystemRandomNumberGenerator()

    var lastSyncAt: Date?
    private var subscribers: [UUID: AsyncStream<SyncEvent>.Continuation] = [:]
    private var loop: Task<Void, Never>?
    /// The loop's pause between passes; an enqueue, a link change or "sync now" ends it.
    private let wakeup = Wakeup()
    /// Why the engine was last woken: "enqueue", "link up (…)", "sync now" (the timer is "timer").
    private var lastWakeReason = "start"
    /// True while the head row waits only because the host was unreachable
    /// (not because the host asked for Retry-After).
    var waitingForConnectivity = false
    /// Set by ``wake(reason:)``: connectivity may be back, so the next pass
    /// does not wait out an offline backoff.
    var connectivityMayHaveChanged = false

    /// When (monotonic) the engine last tried each row in this run: the
    /// elapsed time between attempts is what a row has waited.
    var lastAttempt: [Int64: ContinuousClock.Instant] = [:]

    private let onWake: @Sendable (String) -> Void
    private let onProblem: @Sendable (SyncProblem?) -> Void
    let onTillEventRejected: @Sendable (IdempotencyKey, String) -> Void
    var reachability: HostReachability { host.connection.reachability }

    /// - Parameters:
    ///   - onWake: told why the loop woke (for the log).
    ///   - onProblem: told once per change of problem, nil when solved (for the log).
    ///   - onTillEventRejected: told of a till event the bank refused for good, with why (for the log).
    public init(store: TellerStore, host: HostClient, policy: RetryPolicy = RetryPolicy(),
                onWake: @escaping @Sendable (String) -> Void = { _ in }, onProblem: @escaping @Sendable (SyncProblem?) -> Void = { _ in },
                onTillEventRejected: @escaping @Sendable (IdempotencyKey, String) -> Void = { _, _ in }) {
        self.store = store
        self.host = host
        self.policy = policy
        self.onWake = onWake
        self.onProblem = onProblem
        self.onTillEventRejected = onTillEventRejected
    }

    private var watchingProblems = false

    /// From now on, each change of problem is recorded for `teller status`
    /// and told to `onProblem` (the log), once. ``start()`` does this; `teller
    /// drain --until-empty`, which drives ``drainOnce()`` itself, calls it.
    public func watchProblems() async {
        guard !watchingProblems else { return }
        watchingProblems = true
        reachability.observe { [weak self] problem in
            Task { await self?.problemChanged(problem) }
        }
        // A problem recorded by an earlier run is not this run's.
        try? await store.recordProblem(reachability.problem)
    }

    /// Records the problem as it stands now (nil: none), for a caller about
    /// to exit before a change in flight is recorded.
    public func recordCurrentProblem() async {
        try? await store.recordProblem(reachability.problem)
    }

    /// Starts draining in the background and wakes on every enqueue.
    public func start() async {
        guard loop == nil else { return }
        // "Synced …" survives a restart: the bank's last answer is in the store.
        if lastSyncAt == nil { lastSyncAt = try? await store.lastBankAnswerAt() }
        await watchProblems()
        await store.onEnqueue { [weak self] entry in
            Task { await self?.noteQueued(entry) }
        }
        // A till's opening or closing goes out as soon as the payments ahead of it have.
        await store.onTillEventQueued { [weak self] in
            Task { await self?.resume(reason: "till event queued") }
        }
        loop = Task { await self.run() }
    }

    /// Stops the background drain; an attempt in flight finishes first.
    public func stop() async {
        loop?.cancel()
        resume(reason: "stop")
        await loop?.value
        loop = nil
    }

    public func events() -> AsyncStream<SyncEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: SyncEvent.self, bufferingPolicy: .unbounded)
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    public func status() -> SyncStatus {
        SyncStatus(isOnline: reachability.isOnline, lastSyncAt: lastSyncAt, problem: reachability.problem,
                   clockVerified: store.clock.isVerified)
    }


    public func syncNow() { wake(reason: "sync now") }

    /// Wakes the drain loop because connectivity may have changed (the link
    /// monitor saw a link or address come or go, or someone asked to sync
    /// now): a row that waits out a backoff only because the host was
    /// unreachable is tried at once, and with nothing to send the host is
    /// asked for its health, so a cut shows as Offline without waiting for
    /// the idle timer. A `Retry-After` from the host is still obeyed.
    public func wake(reason: String) {
        connectivityMayHaveChanged = true
        resume(reason: reason)
    }

    private func resume(reason: String) {
        lastWakeReason = reason
        wakeup.wake()
    }

    private func noteQueued(_ entry: OutboxEntry) {
        publish(.queued(entry.key))
        resume(reason: "enqueue")
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    func publish(_ event: SyncEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    private func problemChanged(_ problem: SyncProblem?) async {
        onProblem(problem)
        try? await store.recordProblem(problem)
        publish(.problem(problem))
        publish(problem == nil ? .online : .offline)
    }

    // MARK: The loop

    private func run() async {
        onWake(lastWakeReason)
        while !Task.isCancelled {
            let nextDue = await drainOnce()
            if Task.isCancelled { break }
            let seconds = max(nextDue ?? policy.idleInterval, 0.001)
            let cause = await wakeup.sleep(for: .milliseconds(Int(seconds * 1000)))
            onWake(cause == .timedOut ? "timer" : lastWakeReason)
        }
    }

    // MARK: Connectivity

    /// With nothing to send, one health request keeps the connectivity evidence current.
    func probeHealth() async {
        _ = try? await host.health()
    }
}
