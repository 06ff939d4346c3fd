import FoundationEssentials
import TellerCore
import SQLite

/// What the sync engine records as it works the outbox: the row it takes
/// next, its claim on it, the move to `sending`, the host's outcome, a
/// retry, a stop for review (a mismatch rechecked later), and its current
/// problem (`sync_problem`). Journaling an outcome is the owner's:
/// ``TellerStore`` appends the entry ``setOutcome(_:of:)`` returns in the
/// same transaction.
///
/// Not thread-safe: a part of ``TellerStore``, used on its connection only.
final class SyncLedger {
    private let database: Database
    private let clock: any WallClock
    /// Queued rows the sync engine has taken to send and not yet finished
    /// with (see ``claim(_:)``), and how far each attempt got: a void
    /// refuses them although the `sending` commit may still be on its way
    /// (it is made while the request is on the wire).
    private var sendingClaims: [Int64: Attempt] = [:]

    /// How far the engine's attempt on a claimed row got.
    enum Attempt {
        /// Connecting or handshaking: the attempt may still end with
        /// nothing sent (a refused connection), and the row voidable.
        case connecting
        /// The request left: it may reach the bank whatever comes next.
        case left
    }

    init(database: Database, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Takes queued row `id` for the sync engine to send now. False when it
    /// is no longer queued (voided since the engine read it).
    func claim(_ id: Int64) throws -> Bool {
        let state = try database.queryText("SELECT state FROM outbox WHERE id = ?", [.integer(id)])
        guard state == OutboxState.Kind.queued.rawValue else { return false }
        sendingClaims[id] = .connecting
        return true
    }

    /// The engine's attempt on claimed row `id` sent its request. No-op
    /// when the attempt has ended already (the news can come late).
    func requestLeft(_ id: Int64) {
        if sendingClaims[id] != nil { sendingClaims[id] = .left }
    }

    /// The engine's unfinished attempt on row `id`, or nil when it holds no claim on it.
    func attempt(on id: Int64) -> Attempt? {
        sendingClaims[id]
    }

    /// The queued row with the lowest id above `id` and its frozen body, or nil.
    func nextToSend(after id: Int64) throws -> (entry: OutboxEntry, payload: [UInt8])? {
        try database.queryFirst("SELECT \(OutboxColumns.list), payload FROM outbox WHERE state = ? AND id > ? ORDER BY id LIMIT 1",
                                [.state(.queued), .integer(id)], row: Self.entryWithPayload)
    }

    /// A needs-review row whose last answer was for another request, due now, with its frozen body.
    func nextToRecheck() throws -> (entry: OutboxEntry, payload: [UInt8])? {
        try database.queryFirst("""
            SELECT \(OutboxColumns.list), payload FROM outbox
            WHERE state = ? AND last_error_class = 'mismatch' AND coalesce(next_attempt_at_ms, 0) <= ?
            ORDER BY id LIMIT 1
            """, [.state(.needsReview), .integer(clock.now().millisecondsSince1970)], row: Self.entryWithPayload)
    }

    private static func entryWithPayload(_ row: Statement) throws(SQLiteError) -> (entry: OutboxEntry, payload: [UInt8]) {
        (try OutboxColumns.entry(row), try row.blob("payload"))
    }

    /// When the earliest mismatched needs-review row is due for its next try, or nil when none waits.
    func nextRecheckAt() throws -> Date? {
        try database.queryInt64("SELECT min(coalesce(next_attempt_at_ms, 0)) FROM outbox WHERE state = ? AND last_error_class = 'mismatch'",
                                [.state(.needsReview)])
            .map(Date.init(millisecondsSince1970:))
    }

    /// Moves a queued row to `sending`, inside the caller's transaction.
    func markSending(_ id: Int64) throws {
        try setState(id, .sending, from: [.queued])
    }

    /// Confirmed with the bank's reference, or rejected with its reason,
    /// inside the caller's transaction.
    /// - Returns: the outcome's journal entry, for the caller to append in
    ///   the same transaction.
    func setOutcome(_ outcome: SubmissionOutcome, of id: Int64) throws -> JournalEvent {
        let row = try database.queryFirst("SELECT idempotency_key, operator_id FROM outbox WHERE id = ?", [.integer(id)]) { (row: Statement) throws(SQLiteError) in
            (IdempotencyKey(rawValue: try row.text("idempotency_key")), OperatorID(try row.text("operator_id")))
        }
        guard let (key, enteredBy) = row, let key, let enteredBy else {
            throw TellerError.storage(detail: "\(database.path): outbox row \(id) is missing or has a malformed key or operator")
        }
        switch outcome {
        case .posted(let reference, _):
            try setState(id, .confirmed, from: [.sending, .queued, .needsReview],
                         extra: "host_reference = ?, last_error = NULL, last_error_class = NULL", [.text(reference)])
            return .confirmed(key, enteredBy: enteredBy, reference: reference)
        case .rejected(let reason, let detail, _):
            try setState(id, .rejected, from: [.sending, .queued, .needsReview],
                         extra: "reason = ?, last_error = ?, last_error_class = NULL, acknowledged_at_ms = NULL", [.text(reason), .text(detail)])
            return .rejected(key, enteredBy: enteredBy, reason: reason)
        }
    }

    /// Stops the row for a person to look at; with `recheckAt`, due for another try then.
    func markNeedsReview(_ id: Int64, reason: String, problem: SyncProblem.Kind?, recheckAt: Date?) throws {
        try setState(id, .needsReview, from: [.sending, .queued, .needsReview],
                     extra: "reason = ?, last_error = ?, last_error_class = ?, next_attempt_at_ms = ?, attempts = attempts + 1",
                     [.text(reason), .text(reason), problem.map { .text($0.rawValue) } ?? .null,
                      recheckAt.map { .integer($0.millisecondsSince1970) } ?? .null])
    }

    /// Puts the row back in the queue with its next attempt time, one attempt counted.
    func scheduleRetry(_ id: Int64, at next: Date, error: String, problem: SyncProblem.Kind?, waited: TimeInterval, mayHaveReachedHost: Bool) throws {
        try setState(id, .queued, from: [.sending, .queued],
                     extra: "attempts = attempts + 1, next_attempt_at_ms = ?, last_error = ?, last_error_class = ?, waited_ms = waited_ms + ?"
                        + (mayHaveReachedHost ? ", first_sent_at_ms = coalesce(first_sent_at_ms, updated_at_ms)" : ""),
                     [.integer(next.millisecondsSince1970), .text(error), problem.map { .text($0.rawValue) } ?? .null,
                      .integer(Int64(max(0, waited) * 1000))])
    }

    /// Puts the row back in the queue as it was, due now, with no attempt
    /// counted. Not fsync'd.
    func returnToQueue(_ id: Int64, mayHaveReachedHost: Bool) throws {
        try database.withoutFsync {
            try setState(id, .queued, from: [.sending, .queued],
                         extra: mayHaveReachedHost ? "first_sent_at_ms = coalesce(first_sent_at_ms, updated_at_ms)" : nil)
        }
    }

    /// Moves one row to `state`, only from one of the states in `from`.
    /// - Parameters:
    ///   - extra: further assignments, with `?` for each of `values`.
    /// - Throws: when the row is not in one of `from` (or does not exist).
    private func setState(_ id: Int64, _ state: OutboxState.Kind, from: Set<OutboxState.Kind>, extra: String? = nil, _ values: [SQLValue] = []) throws {
        let allowed = OutboxState.Kind.allCases.filter(from.contains)
        let assignments = ["state = ?", "updated_at_ms = ?"] + (extra.map { [$0] } ?? [])
        let placeholders = allowed.map { _ in "?" }.joined(separator: ", ")
        try database.run("UPDATE outbox SET \(assignments.joined(separator: ", ")) WHERE id = ? AND state IN (\(placeholders))",
                         [.state(state), .integer(clock.now().millisecondsSince1970)] + values + [.integer(id)] + allowed.map(SQLValue.state))
        guard database.changes == 1 else {
            throw TellerError.storage(detail: "\(database.path): outbox row \(id) cannot move to \(state.rawValue) (not in \(allowed.map(\.rawValue).joined(separator: "/")))")
        }
        // The attempt is over unless the row is on the wire: a void may look at it again.
        if state != .sending { sendingClaims[id] = nil }
    }

    /// Keeps the engine's current problem (nil: none). Not fsync'd, as it is a report.
    func recordProblem(_ problem: SyncProblem?) throws {
        try database.withoutFsync {
            if let problem {
                try database.run("INSERT OR REPLACE INTO sync_problem (id, kind, detail, since_ms) VALUES (1, ?, ?, ?)",
                                 [.text(problem.kind.rawValue), .text(problem.detail), .integer(problem.since.millisecondsSince1970)])
            } else {
                try database.run("DELETE FROM sync_problem")
            }
        }
    }

    /// The problem the sync engine last recorded, or nil.
    func recordedProblem() throws -> SyncProblem? {
        try database.queryFirst("SELECT kind, detail, since_ms FROM sync_problem WHERE id = 1") { (row: Statement) throws(SQLiteError) -> SyncProblem? in
            let (kind, detail, since) = (try row.text("kind"), try row.text("detail"), try row.int64("since_ms"))
            return SyncProblem.Kind(rawValue: kind).map { SyncProblem(kind: $0, detail: detail, since: Date(millisecondsSince1970: since)) }
        } ?? nil
    }
}
