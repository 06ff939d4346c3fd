import FoundationEssentials
import TellerCore
import HostTransport

/// The drain itself: rows sent in queue order, pipelined (a checked final
/// outcome commits while the next row is on the wire), and what each
/// failure does to its row (``SyncFailure`` decides the class).
extension SyncEngine {
    /// A row whose final outcome (posted or rejected) arrived and passed the
    /// echo check, and is not recorded yet.
    struct Answered: Sendable {
        let entry: OutboxEntry
        let outcome: SubmissionOutcome
    }

    /// A queued row and the frozen bytes every attempt sends.
    typealias QueuedRow = (entry: OutboxEntry, payload: [UInt8])

    /// What the commit made while a row was on the wire left behind.
    struct WhileSending: Sendable {
        /// False when the store failed.
        let committed: Bool
        /// The queued row after the one on the wire, read then (see
        /// ``TellerStore/markSending(_:recording:)``); nil when none was.
        let following: QueuedRow?
    }

    /// What one attempt left to do.
    enum Attempt {
        /// A final outcome that passed the echo check; the caller records
        /// it. `following` is the queued row after it, read meanwhile.
        case answered(SubmissionOutcome, following: QueuedRow?)
        /// Whatever the host said is recorded; go on with the next row.
        case recorded
        /// Stop: the row (or the store) wants this many seconds.
        case wait(TimeInterval)
    }

    /// Sends queued rows in order until the queue is empty or a row has to
    /// wait. Returns seconds until the waiting row is due, or nil when the
    /// queue is empty.
    ///
    /// Pipelined, in order: once row N's answer has arrived and passed the
    /// echo check with a final outcome (posted or rejected), row N+1 is
    /// sent, and while it is on the wire one commit records N's outcome and
    /// moves N+1 to `sending`. What it keeps:
    /// - N+1 leaves only after N's answer arrived and was checked, so the
    ///   host meets one row at a time, in queue order, each under its key
    ///   with its frozen bytes.
    /// - Nothing is recorded as confirmed that was not checked: the echo
    ///   check runs before an outcome exists.
    /// - Any other answer for N (a failure to retry, a mismatch, a refusal
    ///   for review, a cancellation) is committed before N+1 leaves; only
    ///   a checked final outcome overlaps the next send.
    /// - Outcomes commit in queue order: N+1's answer is recorded only
    ///   after the commit made while it was on the wire succeeded. When
    ///   that failed, N and N+1 go back to the queue and the pass ends; the
    ///   next pass sends them again under their keys and the host replays.
    /// - A crash before that commit leaves N `sending` and N+1 `queued`: the
    ///   next open queues N again, and both resends meet the host's stored
    ///   answers.
    /// - Outcome commits skip fsync, as the host replays what is lost
    ///   (see ``TellerStore/record(_:for:)``).
    @discardableResult
    public func drainOnce() async -> TimeInterval? {
        var retryUnreachableNow = connectivityMayHaveChanged
        connectivityMayHaveChanged = false
        // The previous row's checked outcome: it commits while the next row
        // is on the wire, or on its own before the engine does anything else.
        var answered: Answered?
        // The queued row after the answered one, read while that was on the
        // wire, so no query stands between an answer and the next request.
        // Nothing but this loop moves a queued row (an enqueue only adds rows
        // behind it), so it is still the head when it is used.
        var following: QueuedRow?
        while !Task.isCancelled {
            let next: QueuedRow?
            if let prefetched = following {
                next = prefetched
                following = nil
            } else {
                do { next = try await store.nextToSend() } catch {
                    await settle(&answered)
                    return policy.idleInterval
                }
            }
            guard let (entry, payload) = next else {
                guard await settle(&answered) else { return policy.idleInterval }
                // One till event per pass through the loop, so a payment queued
                // meanwhile goes first.
                switch await sendNextTillEvent() {
                case .attempted: continue
                case .wait(let seconds): return seconds
                case .storeFailed: return policy.idleInterval
                case .noneDue: break
                }
                let tillEventWait = await untilNextTillEvent()
                if let wait = await recheckMismatches() { return min(wait, tillEventWait ?? wait) }
                // Rows that wait for the bank's own answer keep the engine awake until they are due.
                if let due = try? await store.nextRecheckAt() { return min(max(due.timeIntervalSince(store.clock.now()), 0.001), tillEventWait ?? .infinity) }
                if let tillEventWait { return tillEventWait }
                await probeHealth()
                return nil
            }
            let now = store.clock.now()
            if let due = entry.nextAttemptAt, due > now, !(retryUnreachableNow && waitingForConnectivity) {
                guard await settle(&answered) else { return policy.idleInterval }
                return due.timeIntervalSince(now)
            }
            retryUnreachableNow = false
            // Elapsed time the engine watched the row wait, never wall-clock
            // arithmetic: a clock that jumps (a board booted at 1970, then set)
            // alone never moves a row to needs review.
            if entry.waited > policy.horizon {
                guard await settle(&answered) else { return policy.idleInterval }
                try? await store.markNeedsReview(entry.id, reason: "not final after \(Int(policy.horizon / 86_400)) days; check its status with the host", problem: entry.lastProblem)
                publish(.needsReview(entry.key, reason: "retry horizon passed"))
                continue
            }
            // Taken on the store's actor, which voids on the same actor: a
            // row voided since it was read (the prefetched one too) is never
            // sent, and from here until the attempt ends none can be voided.
            let claimed: Bool
            do { claimed = try await store.claimForSending(entry.id) } catch {
                await settle(&answered)
                return policy.idleInterval
            }
            guard claimed else { continue }
            let previous = answered
            answered = nil
            switch await send(entry, payload, after: previous) {
            case .answered(let outcome, let after):
                answered = Answered(entry: entry, outcome: outcome)
                following = after
            case .recorded: continue
            case .wait(let seconds): return seconds
            }
        }
        await settle(&answered)
        return nil
    }

    /// One attempt; while its request is on the wire, `previous`'s outcome
    /// and this row's move to `sending` commit.
    private func send(_ entry: OutboxEntry, _ payload: [UInt8], after previous: Answered?) async -> Attempt {
        // Begun once the request is in libcurl's hands: begun earlier, the
        // runtime may run it on this thread first and hold the request back.
        let pending = SendingCommit { Task { await self.commitWhileSending(entry, after: previous) } }
        let result: Result<SubmissionOutcome, HostError>
        do throws(HostError) {
            let progress = RequestProgress(handedOver: { pending.handedOver() }, leaving: {
                // Said as it happens; the answer below says it first if this hop is late.
                if pending.left() {
                    Task {
                        await self.store.requestLeft(entry.id)
                        await self.announceSending(entry.key, pending)
                    }
                }
            })
            result = .success(try await host.submit(payload, key: entry.key, progress: progress))
        } catch {
            result = .failure(error)
        }
        let whileSending = await pending.finished()
        announceSending(entry.key, pending)
        let handedOver = pending.wasHandedOver
        guard whileSending.committed else {
            // Outcomes commit in queue order: this answer is dropped too, and
            // the host replays it when the row is sent again.
            try? await store.returnToQueue(entry.id, mayHaveReachedHost: handedOver)
            return .wait(policy.idleInterval)
        }
        switch result {
        case .success(let outcome):
            return .answered(outcome, following: whileSending.following)
        case .failure(let error):
            return await handle(error, for: entry, handedOver: handedOver).map(Attempt.wait) ?? .recorded
        }
    }

    /// Commits, while `entry`'s request is on the wire, `previous`'s outcome
    /// and `entry`'s move to `sending`, then tells subscribers. When the
    /// store failed, `previous` goes back to the queue, so its next attempt
    /// meets the host's replay (if that write fails too, the next open
    /// queues it again).
    private func commitWhileSending(_ entry: OutboxEntry, after previous: Answered?) async -> WhileSending {
        let following: QueuedRow?
        do {
            following = try await store.markSending(entry.id, recording: previous.map { ($0.entry.id, $0.outcome) })
        } catch {
            if let previous { try? await store.returnToQueue(previous.entry.id) }
            return WhileSending(committed: false, following: nil)
        }
        if let previous { recorded(previous.outcome, for: previous.entry) }
        return WhileSending(committed: true, following: following)
    }

    /// ``SyncEvent/sending(_:)`` once, and only when the request left: a
    /// refused connection or handshake sent nothing, and is not "sending".
    private func announceSending(_ key: IdempotencyKey, _ pending: SendingCommit) {
        if pending.announce() { publish(.sending(key)) }
    }

    /// Records the outcome held in `answered` on its own and empties it.
    /// Returns false when the store failed; the row then goes back to the
    /// queue, so its next attempt meets the host's replay.
    @discardableResult
    func settle(_ answered: inout Answered?) async -> Bool {
        guard let pending = answered else { return true }
        answered = nil
        if await record(pending.outcome, for: pending.entry) { return true }
        try? await store.returnToQueue(pending.entry.id)
        return false
    }

    /// Stores a final outcome; false when the store failed.
    func record(_ outcome: SubmissionOutcome, for entry: OutboxEntry) async -> Bool {
        do {
            try await store.record(outcome, for: entry.id)
        } catch {
            return false
        }
        recorded(outcome, for: entry)
        return true
    }

    /// Tells subscribers of an outcome that has just been committed.
    private func recorded(_ outcome: SubmissionOutcome, for entry: OutboxEntry) {
        lastSyncAt = store.clock.now()
        switch outcome {
        case .posted(let reference, _): publish(.confirmed(entry.key, reference: reference))
        case .rejected(let reason, _, _): publish(.rejected(entry.key, reason: reason))
        }
    }

    /// - Parameter handedOver: the request was handed to the transport, so
    ///   unless `error` proves otherwise it may have reached the bank, and
    ///   the row can never be voided.
    private func handle(_ error: HostError, for entry: OutboxEntry, handedOver: Bool) async -> TimeInterval? {
        let attempt = entry.attempts + 1
        let mayHaveReachedHost = handedOver && error.mayHaveBeenPosted
        if case .offline = error { waitingForConnectivity = true } else if case .timeout = error { waitingForConnectivity = true } else { waitingForConnectivity = false }
        let retryAfter: TimeInterval?
        switch SyncFailure(error) {
        case .stopping:
            // The terminal is stopping: the row stays queued, as it was.
            try? await store.returnToQueue(entry.id, mayHaveReachedHost: mayHaveReachedHost)
            return policy.idleInterval
        case .needsReview:
            try? await store.markNeedsReview(entry.id, reason: error.description, problem: error.problemKind)
            publish(.needsReview(entry.key, reason: error.description))
            return nil
        case .mismatch:
            // Never Confirmed: a person looks at it, and the engine keeps
            // asking the host under the same key until the bank itself answers.
            let delay = policy.delay(retryAfter: nil, attempt: attempt, using: &random)
            try? await store.markNeedsReview(entry.id, reason: error.description, problem: .mismatch, recheckAt: store.clock.now().addingTimeInterval(delay))
            publish(.needsReview(entry.key, reason: error.description))
            return nil
        case .retry(let after):
            retryAfter = after
        }
        let delay = policy.delay(retryAfter: retryAfter, attempt: attempt, using: &random)
        let instant = ContinuousClock.now
        let waited = lastAttempt[entry.id].map { (instant - $0).seconds } ?? 0
        lastAttempt[entry.id] = instant
        try? await store.scheduleRetry(entry.id, at: store.clock.now().addingTimeInterval(delay), error: error.description,
                                       problem: error.problemKind, waited: waited, mayHaveReachedHost: mayHaveReachedHost)
        return delay
    }

    /// Asks the host again about rows whose answer was for another request:
    /// the same key and bytes, so the bank posts it once or replays what it
    /// decided. Returns how long to wait when the host failed, else nil.
    private func recheckMismatches() async -> TimeInterval? {
        while !Task.isCancelled {
            guard let (entry, payload) = try? await store.nextToRecheck() else { return nil }
            do throws(HostError) {
                let outcome = try await host.submit(payload, key: entry.key)
                guard await record(outcome, for: entry) else { return policy.idleInterval }
            } catch {
                if case .cancelled = error { return nil }
                let delay = policy.delay(retryAfter: nil, attempt: entry.attempts + 1, using: &random)
                let reason = error.problemKind == .mismatch ? error.description : (entry.lastError ?? error.description)
                try? await store.markNeedsReview(entry.id, reason: reason, problem: .mismatch, recheckAt: store.clock.now().addingTimeInterval(delay))
                return delay
            }
        }
        return nil
    }
}
