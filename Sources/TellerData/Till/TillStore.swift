import FoundationEssentials
import TellerCore
import SQLite

/// A till's opening or closing waiting for the bank (`till_events`), with
/// the frozen bytes every attempt sends under its key.
struct QueuedTillEvent: Sendable {
    let id: Int64
    let key: IdempotencyKey
    let tillID: Int64
    /// "opened" or "closed".
    let kind: String
    let payload: [UInt8]
    let attempts: Int
}

/// The tills (`tills`, docs/architecture.md, "Till") and their openings
/// and closings for the bank (`till_events`). A till's cash position is
/// read from the outbox rows that carry its id, so it cannot drift from
/// them. Journaling an opening or closing is the owner's: ``TellerStore``
/// wraps these writes and the journal entries in one transaction.
///
/// Not thread-safe: a part of ``TellerStore``, used on its connection only.
final class TillStore {
    let database: Database
    private let clock: any WallClock
    private let settings: TillSettings

    init(database: Database, clock: any WallClock, settings: TillSettings) {
        self.database = database
        self.clock = clock
        self.settings = settings
    }

    /// A count in the till's currency and denominations.
    func checked(_ count: TillCount) throws(TellerError) {
        do throws(TillRefusal) { try count.validate(in: settings.denominations) } catch { throw .till(error) }
    }

    /// Opens the operator's till with its counted float and queues its
    /// event for the bank, inside the caller's transaction.
    /// - Returns: the till, its event's key and the time it was stamped with.
    func open(by operatorID: OperatorID, count: TillCount) throws -> (till: TillSession, event: IdempotencyKey, at: Date) {
        guard try openTillID(of: operatorID) == nil else { throw TellerError.till(.alreadyOpen) }
        let stamp = clock.stamp()
        let now = stamp.date
        try database.run("""
            INSERT INTO tills (operator_id, currency, opened_at_ms, opening_count, opening_minor) VALUES (?, ?, ?, ?, ?)
            """, [.text(operatorID.rawValue), .text(count.currency.code), .integer(now.millisecondsSince1970), .text(count.json),
                  .integer(count.total.minorUnits)])
        let till = TillSession(id: database.lastInsertRowID, operatorID: operatorID, openedAt: now, opening: count,
                               cashIn: .zero(count.currency), cashOut: .zero(count.currency), cashPayments: 0)
        let key = try queueEvent(WireTillEvent(opened: till, at: now, clockUnverified: !stamp.isVerified), kind: "opened", till: till.id, at: now)
        return (till, key, now)
    }

    /// Closes the operator's open till with its closing count and queues
    /// its event for the bank, inside the caller's transaction. Off by more
    /// than the tolerance, it needs a supervisor's approval.
    /// - Returns: the till, its event's key and the time it was stamped with.
    func close(by operatorID: OperatorID, count: TillCount, approvedBy: OperatorID?) throws -> (till: TillSession, event: IdempotencyKey, at: Date) {
        guard let id = try openTillID(of: operatorID), var till = try session(id) else { throw TellerError.till(.notOpen) }
        let stamp = clock.stamp()
        let now = stamp.date
        let closing = TillSession.Closing(closedAt: now, counted: count, expected: till.position, approvedBy: approvedBy)
        let beyondTolerance = abs(closing.overShort.minorUnits) > settings.tolerance.minorUnits
        if beyondTolerance, approvedBy == nil { throw TellerError.till(.needsApproval(overShort: closing.overShort, tolerance: settings.tolerance)) }
        // An approval nothing needed is not recorded as one.
        till.closing = beyondTolerance ? closing : TillSession.Closing(closedAt: now, counted: count, expected: till.position, approvedBy: nil)
        try database.run("""
            UPDATE tills SET closed_at_ms = ?, closing_count = ?, counted_minor = ?, expected_minor = ?, approved_by = ?
            WHERE id = ? AND closed_at_ms IS NULL
            """, [.integer(now.millisecondsSince1970), .text(count.json), .integer(count.total.minorUnits),
                  .integer(closing.expected.minorUnits), till.closing?.approvedBy.map { .text($0.rawValue) } ?? .null, .integer(id)])
        let key = try queueEvent(WireTillEvent(closed: till, at: now, clockUnverified: !stamp.isVerified), kind: "closed", till: id, at: now)
        return (till, key, now)
    }

    /// The id of the operator's open till, read inside the caller's transaction.
    func openTillID(of operatorID: OperatorID) throws -> Int64? {
        try database.queryInt64("SELECT id FROM tills WHERE operator_id = ? AND closed_at_ms IS NULL", [.text(operatorID.rawValue)])
    }

    /// Whether till `id` exists, open or closed.
    func exists(_ id: Int64) throws -> Bool {
        try database.queryInt64("SELECT id FROM tills WHERE id = ?", [.integer(id)]) != nil
    }

    /// A till with its cash position, read inside the caller's transaction.
    func session(_ id: Int64) throws -> TillSession? {
        guard let row = try database.queryFirst("""
            SELECT operator_id, currency, opened_at_ms, opening_count, closed_at_ms, closing_count, expected_minor, approved_by FROM tills WHERE id = ?
            """, [.integer(id)], row: { (row: Statement) throws(SQLiteError) in
                (operatorID: try row.text("operator_id"), currency: try row.text("currency"), openedAt: try row.int64("opened_at_ms"),
                 opening: try row.text("opening_count"), closedAt: try row.optionalInt64("closed_at_ms"), closing: try row.optionalText("closing_count"),
                 expected: try row.optionalInt64("expected_minor"), approvedBy: try row.optionalText("approved_by"))
            }) else { return nil }
        func corrupt(_ what: String) -> SQLiteError { SQLiteError(code: .corrupt, message: "till \(id) has \(what)", path: database.path) }
        guard let operatorID = OperatorID(row.operatorID) else { throw corrupt("a malformed operator id") }
        guard let currency = Currency(code: row.currency) else { throw corrupt("the unknown currency '\(row.currency)'") }
        guard let opening = TillCount(json: row.opening, currency: currency) else { throw corrupt("an unreadable opening count") }
        let (cashIn, cashOut, payments) = try database.queryFirst("""
            SELECT coalesce(sum(CASE WHEN kind = 'deposit' THEN amount_minor END), 0) AS cash_in_minor,
                   coalesce(sum(CASE WHEN kind = 'withdrawal' THEN amount_minor END), 0) AS cash_out_minor, count(*) AS payments
            FROM outbox WHERE till_id = ? AND state != ? AND currency = ?
            """, [.integer(id), .state(.voided), .text(currency.code)]) { (row: Statement) throws(SQLiteError) in
                (try row.int64("cash_in_minor"), try row.int64("cash_out_minor"), Int(try row.int64("payments")))
            } ?? (0, 0, 0)
        // The exceptions of one till, through outbox_by_till: a drawer session's payments, not the years.
        let exceptions = try database.query("""
            SELECT \(OutboxColumns.list) FROM outbox WHERE till_id = ? AND state IN (?, ?, ?) AND currency = ? ORDER BY id
            """, [.integer(id), .state(.voided), .state(.rejected), .state(.needsReview), .text(currency.code)], row: OutboxColumns.entry)
        let voided = exceptions.filter { if case .voided = $0.state { true } else { false } }
        let toSettle = exceptions.filter { if case .voided = $0.state { false } else { true } }
        var closing: TillSession.Closing?
        if let closedAt = row.closedAt {
            guard let text = row.closing, let counted = TillCount(json: text, currency: currency), let expected = row.expected else {
                throw corrupt("an unreadable closing count")
            }
            var approvedBy: OperatorID?
            if let text = row.approvedBy {
                guard let id = OperatorID(text) else { throw corrupt("a malformed approving supervisor") }
                approvedBy = id
            }
            closing = TillSession.Closing(closedAt: Date(millisecondsSince1970: closedAt), counted: counted,
                                          expected: Money(minorUnits: expected, currency: currency), approvedBy: approvedBy)
        }
        return TillSession(id: id, operatorID: operatorID, openedAt: Date(millisecondsSince1970: row.openedAt), opening: opening,
                           cashIn: Money(minorUnits: cashIn, currency: currency), cashOut: Money(minorUnits: cashOut, currency: currency),
                           cashPayments: payments, voided: voided, toSettle: toSettle, closing: closing)
    }

    /// Queues a till event for the bank under a fresh key, inside the caller's transaction.
    private func queueEvent(_ event: WireTillEvent, kind: String, till: Int64, at now: Date) throws -> IdempotencyKey {
        let key = IdempotencyKey.random()
        try database.run("""
            INSERT INTO till_events (idempotency_key, till_id, kind, payload, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(key.rawValue), .integer(till), .text(kind), .blob(try event.encoded()), .integer(now.millisecondsSince1970),
                  .integer(now.millisecondsSince1970)])
        return key
    }

    // MARK: The events as the sync engine works them

    /// The oldest queued till event when it is due now, or nil.
    func nextEventToSend() throws -> QueuedTillEvent? {
        let row = try database.queryFirst("""
            SELECT id, idempotency_key, till_id, kind, payload, attempts, next_attempt_at_ms FROM till_events
            WHERE state = 'queued' ORDER BY id LIMIT 1
            """) { (row: Statement) throws(SQLiteError) in
            (id: try row.int64("id"), key: try row.text("idempotency_key"), tillID: try row.int64("till_id"), kind: try row.text("kind"),
             payload: try row.blob("payload"), attempts: try row.int64("attempts"), nextAttemptAt: try row.optionalInt64("next_attempt_at_ms"))
        }
        guard let row, (row.nextAttemptAt ?? 0) <= clock.now().millisecondsSince1970 else { return nil }
        guard let key = IdempotencyKey(rawValue: row.key) else {
            throw TellerError.storage(detail: "\(database.path): till event \(row.id) has the malformed key '\(row.key)'")
        }
        return QueuedTillEvent(id: row.id, key: key, tillID: row.tillID, kind: row.kind, payload: row.payload, attempts: Int(row.attempts))
    }

    /// When the oldest queued till event is due, or nil when none is queued.
    func nextEventAt() throws -> Date? {
        try database.queryInt64("SELECT coalesce(next_attempt_at_ms, 0) FROM till_events WHERE state = 'queued' ORDER BY id LIMIT 1")
            .map(Date.init(millisecondsSince1970:))
    }

    /// The bank recorded the event: confirmed with its reference.
    func recordEvent(_ id: Int64, reference: String) throws {
        try setEventState(id, "confirmed", extra: "host_reference = ?, last_error = NULL, next_attempt_at_ms = NULL", [.text(reference)])
    }

    /// The bank refused the event for good.
    func rejectEvent(_ id: Int64, reason: String) throws {
        try setEventState(id, "rejected", extra: "last_error = ?, attempts = attempts + 1, next_attempt_at_ms = NULL", [.text(reason)])
    }

    /// Queued again, due at `next`.
    func scheduleEventRetry(_ id: Int64, at next: Date, error: String) throws {
        try setEventState(id, "queued", extra: "last_error = ?, attempts = attempts + 1, next_attempt_at_ms = ?",
                          [.text(error), .integer(next.millisecondsSince1970)])
    }

    /// Every event still queued for the bank, oldest first, with its frozen body: what a rescue file carries.
    func unrecordedEvents() throws -> [RescueDocument.TillEvent] {
        try database.query("""
            SELECT idempotency_key, till_id, kind, payload, created_at_ms, attempts FROM till_events WHERE state = 'queued' ORDER BY id
            """) { (row: Statement) throws(SQLiteError) in
            RescueDocument.TillEvent(
                idempotencyKey: try row.text("idempotency_key"), tillID: try row.int64("till_id"), event: try row.text("kind"),
                body: String(decoding: try row.blob("payload"), as: UTF8.self),
                createdAt: WireTransaction.timestamp(Date(millisecondsSince1970: try row.int64("created_at_ms"))),
                attempts: Int(try row.int64("attempts")))
        }
    }

    /// Till events not yet at the bank.
    func queuedEventCount() throws -> Int {
        Int(try database.queryInt64("SELECT count(*) FROM till_events WHERE state = 'queued'") ?? 0)
    }

    /// Moves a queued event to `state`, not fsync'd; throws when it is not queued (or does not exist).
    private func setEventState(_ id: Int64, _ state: String, extra: String, _ values: [SQLValue]) throws {
        try database.withoutFsync {
            try database.run("UPDATE till_events SET state = ?, updated_at_ms = ?, \(extra) WHERE id = ? AND state = 'queued'",
                             [.text(state), .integer(clock.now().millisecondsSince1970)] + values + [.integer(id)])
            guard database.changes == 1 else {
                throw TellerError.storage(detail: "\(database.path): till event \(id) cannot move to \(state) (not queued)")
            }
        }
    }
}
