import FoundationEssentials
import TellerCore

/// The outbox as the sync engine works it: oldest queued row first, and
/// one state change per answer from the host.
extension TellerStore {
    /// The queued row with the lowest id (above `id`, when given) and its
    /// frozen body, or nil when none is queued.
    func nextToSend(after id: Int64 = 0) throws(TellerError) -> (entry: OutboxEntry, payload: [UInt8])? {
        try translating {
            try database.queryFirst("SELECT \(OutboxColumns.list), payload FROM outbox WHERE state = ? AND id > ? ORDER BY id LIMIT 1",
                                    [.state(.queued), .integer(id)]) {
                (row: Statement) throws(SQLiteError) -> (entry: OutboxEntry, payload: [UInt8]) in
                (try OutboxColumns.entry(row), try row.blob("payload"))
            }
        }
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
                    try setState(id, .sending, from: [.queued])
                }
            }
        }
        return try? nextToSend(after: id)
    }

    /// A needs-review row whose last answer was for another request, due
    /// for another try under its own key, with its frozen body.
    func nextToRecheck() throws(TellerError) -> (entry: OutboxEntry, payload: [UInt8])? {
        try translating {
            try database.queryFirst("""
                SELECT \(OutboxColumns.list), payload FROM outbox
                WHERE state = ? AND last_error_class = 'mismatch' AND coalesce(next_attempt_at_ms, 0) <= ?
                ORDER BY id LIMIT 1
                """, [.state(.needsReview), .integer(clock.now().millisecondsSince1970)]) {
                (row: Statement) throws(SQLiteError) -> (entry: OutboxEntry, payload: [UInt8]) in
                (try OutboxColumns.entry(row), try row.blob("payload"))
            }
        }
    }

    /// When the earliest mismatched needs-review row is due for its next try, or nil when none waits.
    func nextRecheckAt() throws(TellerError) -> Date? {
        try translating {
            try database.queryInt64("SELECT min(coalesce(next_attempt_at_ms, 0)) FROM outbox WHERE state = ? AND last_error_class = 'mismatch'",
                                    [.state(.needsReview)])
                .map(Date.init(millisecondsSince1970:))
        }
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
    private func setOutcome(_ outcome: SubmissionOutcome, of id: Int64) throws(TellerError) {
        let row = try translating {
            try database.queryFirst("SELECT idempotency_key, operator_id FROM outbox WHERE id = ?", [.integer(id)]) { (row: Statement) throws(SQLiteError) in
                (IdempotencyKey(rawValue: try row.text("idempotency_key")), OperatorID(try row.text("operator_id")))
            }
        }
        guard let (key, enteredBy) = row, let key, let enteredBy else {
            throw TellerError.storage(detail: "\(path): outbox row \(id) is missing or has a malformed key or operator")
        }
        let event: JournalEvent
        switch outcome {
        case .posted(let reference, _):
            try setState(id, .confirmed, from: [.sending, .queued, .needsReview],
                         extra: "host_reference = ?, last_error = NULL, last_error_class = NULL", [.text(reference)])
            event = .confirmed(key, enteredBy: enteredBy, reference: reference)
        case .rejected(let reason, let detail, _):
            try setState(id, .rejected, from: [.sending, .queued, .needsReview],
                         extra: "reason = ?, last_error = ?, last_error_class = NULL, acknowledged_at_ms = NULL", [.text(reason), .text(detail)])
            event = .rejected(key, enteredBy: enteredBy, reason: reason)
        }
        try translating { () throws -> Void in try appendJournal(event, at: clock.now()) }
    }

    /// Stops the row for a person to look at. With `recheckAt` (a mismatch)
    /// the engine asks the host again under the same key at that time.
    func markNeedsReview(_ id: Int64, reason: String, problem: SyncProblem.Kind?, recheckAt: Date? = nil) throws(TellerError) {
        try setState(id, .needsReview, from: [.sending, .queued, .needsReview],
                     extra: "reason = ?, last_error = ?, last_error_class = ?, next_attempt_at_ms = ?, attempts = attempts + 1",
                     [.text(reason), .text(reason), problem.map { .text($0.rawValue) } ?? .null,
                      recheckAt.map { .integer($0.millisecondsSince1970) } ?? .null])
    }

    /// Puts the row back in the queue with its next attempt time; it keeps
    /// its place, so rows behind it wait (the host journals in queue order).
    /// - Parameters:
    ///   - waited: elapsed (monotonic) time since the engine last tried this row in this run.
    ///   - mayHaveReachedHost: the attempt's request may have reached the
    ///     bank (see ``SyncEngine``): from now on the row can never be voided.
    func scheduleRetry(_ id: Int64, at next: Date, error: String, problem: SyncProblem.Kind?, waited: TimeInterval,
                       mayHaveReachedHost: Bool = true) throws(TellerError) {
        try setState(id, .queued, from: [.sending, .queued],
                     extra: "attempts = attempts + 1, next_attempt_at_ms = ?, last_error = ?, last_error_class = ?, waited_ms = waited_ms + ?"
                        + (mayHaveReachedHost ? ", first_sent_at_ms = coalesce(first_sent_at_ms, updated_at_ms)" : ""),
                     [.integer(next.millisecondsSince1970), .text(error), problem.map { .text($0.rawValue) } ?? .null,
                      .integer(Int64(max(0, waited) * 1000))])
    }

    /// An attempt that was cancelled (the terminal is stopping), or whose
    /// `sending` commit failed, leaves the row as it was: queued, due now,
    /// with no attempt counted; but one whose request may have reached the
    /// bank can never be voided from now on.
    func returnToQueue(_ id: Int64, mayHaveReachedHost: Bool = true) throws(TellerError) {
        try translating {
            try database.withoutFsync {
                try setState(id, .queued, from: [.sending, .queued],
                             extra: mayHaveReachedHost ? "first_sent_at_ms = coalesce(first_sent_at_ms, updated_at_ms)" : nil)
            }
        }
    }

    /// Moves one row to `state`, only from one of the states in `from`.
    /// - Parameters:
    ///   - extra: further assignments, with `?` for each of `values`.
    /// - Throws: when the row is not in one of `from` (or does not exist).
    private func setState(_ id: Int64, _ state: OutboxState.Kind, from: Set<OutboxState.Kind>, extra: String? = nil, _ values: [SQLValue] = []) throws(TellerError) {
        try translating { () throws -> Void in
            let allowed = OutboxState.Kind.allCases.filter(from.contains)
            let assignments = ["state = ?", "updated_at_ms = ?"] + (extra.map { [$0] } ?? [])
            let placeholders = allowed.map { _ in "?" }.joined(separator: ", ")
            try database.run("UPDATE outbox SET \(assignments.joined(separator: ", ")) WHERE id = ? AND state IN (\(placeholders))",
                             [.state(state), .integer(clock.now().millisecondsSince1970)] + values + [.integer(id)] + allowed.map(SQLValue.state))
            guard database.changes == 1 else {
                throw TellerError.storage(detail: "\(path): outbox row \(id) cannot move to \(state.rawValue) (not in \(allowed.map(\.rawValue).joined(separator: "/")))")
            }
        }
        // The attempt is over unless the row is on the wire: a void may look at it again.
        if state != .sending { sendingClaims.remove(id) }
    }

    /// Keeps the engine's current problem (nil: none) for `teller status`.
    /// Written once per change of problem; not fsync'd, as it is a report.
    func recordProblem(_ problem: SyncProblem?) throws(TellerError) {
        try translating {
            try database.withoutFsync {
                if let problem {
                    try database.run("INSERT OR REPLACE INTO sync_problem (id, kind, detail, since_ms) VALUES (1, ?, ?, ?)",
                                     [.text(problem.kind.rawValue), .text(problem.detail), .integer(problem.since.millisecondsSince1970)])
                } else {
                    try database.run("DELETE FROM sync_problem")
                }
            }
        }
    }

    /// The problem the sync engine last recorded, or nil.
    public func recordedProblem() throws(TellerError) -> SyncProblem? {
        try translating {
            try database.queryFirst("SELECT kind, detail, since_ms FROM sync_problem WHERE id = 1") { (row: Statement) throws(SQLiteError) -> SyncProblem? in
                let (kind, detail, since) = (try row.text("kind"), try row.text("detail"), try row.int64("since_ms"))
                return SyncProblem.Kind(rawValue: kind).map { SyncProblem(kind: $0, detail: detail, since: Date(millisecondsSince1970: since)) }
            } ?? nil
        }
    }

    /// Rows a person has to look at, oldest first, with the reason.
    public func needsReviewEntries() throws(TellerError) -> [OutboxEntry] {
        try translating {
            try database.query("SELECT \(OutboxColumns.list) FROM outbox WHERE state = ? ORDER BY id", [.state(.needsReview)], row: OutboxColumns.entry)
        }
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
