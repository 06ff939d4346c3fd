import FoundationEssentials
import TellerCore
import SQLite

/// The outbox as the sync engine works it (``SyncLedger`` keeps it):
/// oldest queued row first, and one state change per answer from the host.
extension TellerStore {
    /// When the bank last posted something this terminal sent (a payment
    /// confirmed, a till event recorded), or nil when it never has: what
    /// the status bar's "Synced …" shows after a restart, until this run's
    /// first answer. Reads only the newest rows of each (they are answered
    /// in order), so it costs the same after years.
    public func lastBankAnswerAt() throws(TellerError) -> Date? {
        try translating {
            let payment = try outbox.lastConfirmedAt()
            let tillEvent = try database.queryInt64("""
                SELECT max(updated_at_ms) FROM (SELECT updated_at_ms FROM till_events WHERE state = 'confirmed' ORDER BY id DESC LIMIT \(OutboxStore.newestRows))
                """).map(Date.init(millisecondsSince1970:))
            return [payment, tillEvent].compactMap { $0 }.max()
        }
    }

    /// Takes queued row `id` for the sync engine to send now. False when it
    /// is no longer queued (voided since the engine read it): the engine
    /// must not send it. Until the attempt ends (the row moves to any state
    /// but `sending`) a void refuses it, or waits while the request has not
    /// left (``void(_:reason:by:)``).
    func claimForSending(_ id: Int64) throws(TellerError) -> Bool {
        try translating { try ledger.claim(id) }
    }

    /// The engine's attempt on claimed row `id` sent its request: from now
    /// on a void refuses the row at once (it may reach the bank).
    func requestLeft(_ id: Int64) {
        ledger.requestLeft(id)
    }

    /// The queued row with the lowest id (above `id`, when given) and its
    /// frozen body, or nil when none is queued.
    func nextToSend(after id: Int64 = 0) throws(TellerError) -> (entry: OutboxEntry, payload: [UInt8])? {
        try translating { try ledger.nextToSend(after: id) }
    }

    /// Moves a row to `sending` while its request is on the wire and, in
    /// the same commit, records the final outcome of the row before it
    /// (answered and checked while this one was not yet sent).
    ///
    /// Not fsync'd: a crash sends a `sending` row back to `queued` on the
    /// next open whatever is on disk, and for the outcome see
    /// ``record(_:for:)``.
    /// - Parameter previous: the row before, and the outcome the host gave it.
    /// - Returns: the queued row after this one, read in passing while the
    ///   request is still on the wire (nil when none is, or it could not be
    ///   read): what the engine sends next if this row ends in an outcome.
    @discardableResult
    func markSending(_ id: Int64, recording previous: (id: Int64, outcome: SubmissionOutcome)? = nil) throws(TellerError)
        -> (entry: OutboxEntry, payload: [UInt8])? {
        try translating {
            try database.withoutFsync {
                try database.inTransaction {
                    if let previous { try setOutcome(previous.outcome, of: previous.id) }
                    try ledger.markSending(id)
                }
            }
        }
        return try? nextToSend(after: id)
    }

    /// A needs-review row whose last answer was for another request, due
    /// for another try under its own key, with its frozen body.
    func nextToRecheck() throws(TellerError) -> (entry: OutboxEntry, payload: [UInt8])? {
        try translating { try ledger.nextToRecheck() }
    }

    /// When the earliest mismatched needs-review row is due for its next try, or nil when none waits.
    func nextRecheckAt() throws(TellerError) -> Date? {
        try translating { try ledger.nextRecheckAt() }
    }

    /// Records the host's final outcome for a row. A needs-review row whose
    /// key the bank finally answered becomes final too.
    ///
    /// Not fsync'd, because the host keeps every final outcome under the
    /// row's key (docs/host-api.md §7). If power fails before a later
    /// fsync'd commit (the next enqueue, or any other) carries this one to
    /// the disk, the row opens as `sending`, `queued` or `needsReview`, is
    /// sent again under the same key with the same frozen bytes, and the
    /// host replays the answer it stored: the same reference, or the same
    /// reason. No money moves twice and the row ends where it was. WAL
    /// commits reach the disk in order, and an enqueue always waits for it.
    /// The outcome's journal entry commits with it, so it is lost with it
    /// too and written again when the host replays the outcome.
    func record(_ outcome: SubmissionOutcome, for id: Int64) throws(TellerError) {
        try translating { try database.withoutFsync { try database.inTransaction { try setOutcome(outcome, of: id) } } }
    }

    /// Confirmed with the bank's reference, or rejected with its reason,
    /// and its journal entry; inside the caller's transaction.
    private func setOutcome(_ outcome: SubmissionOutcome, of id: Int64) throws {
        let event = try ledger.setOutcome(outcome, of: id)
        try appendJournal(event, at: clock.now())
    }

    /// Stops the row for a person to look at. With `recheckAt` (a mismatch)
    /// the engine asks the host again under the same key at that time.
    func markNeedsReview(_ id: Int64, reason: String, problem: SyncProblem.Kind?, recheckAt: Date? = nil) throws(TellerError) {
        try translating { try ledger.markNeedsReview(id, reason: reason, problem: problem, recheckAt: recheckAt) }
    }

    /// Puts the row back in the queue with its next attempt time; it keeps
    /// its place, so rows behind it wait (the host journals in queue order).
    /// - Parameters:
    ///   - waited: elapsed (monotonic) time since the engine last tried this row in this run.
    ///   - mayHaveReachedHost: the attempt's request may have reached the
    ///     bank (see ``SyncEngine``): from now on the row can never be voided.
    func scheduleRetry(_ id: Int64, at next: Date, error: String, problem: SyncProblem.Kind?, waited: TimeInterval,
                       mayHaveReachedHost: Bool = true) throws(TellerError) {
        try translating {
            try ledger.scheduleRetry(id, at: next, error: error, problem: problem, waited: waited, mayHaveReachedHost: mayHaveReachedHost)
        }
    }

    /// An attempt that was cancelled (the terminal is stopping), or whose
    /// `sending` commit failed, leaves the row as it was: queued, due now,
    /// with no attempt counted; but one whose request may have reached the
    /// bank can never be voided from now on.
    func returnToQueue(_ id: Int64, mayHaveReachedHost: Bool = true) throws(TellerError) {
        try translating { try ledger.returnToQueue(id, mayHaveReachedHost: mayHaveReachedHost) }
    }

    /// Keeps the engine's current problem (nil: none) for `teller status`.
    /// Written once per change of problem; not fsync'd, as it is a report.
    func recordProblem(_ problem: SyncProblem?) throws(TellerError) {
        try translating { try ledger.recordProblem(problem) }
    }

    /// The problem the sync engine last recorded, or nil.
    public func recordedProblem() throws(TellerError) -> SyncProblem? {
        try translating { try ledger.recordedProblem() }
    }

    /// Registers a callback run after every committed enqueue (the sync engine's wake-up).
    public func onEnqueue(_ observer: @escaping @Sendable (OutboxEntry) -> Void) {
        enqueueObservers.append(observer)
    }

    /// Registers a callback run after a till's opening or closing queued its event for the bank.
    public func onTillEventQueued(_ observer: @escaping @Sendable () -> Void) {
        tillEventObservers.append(observer)
    }
}
