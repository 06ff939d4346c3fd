import FoundationEssentials
import TellerCore

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

/// The till events as the sync engine works them (docs/host-api.md §11):
/// queued when the till opens or closes (TellerStore+Till.swift), sent
/// after the payments, oldest first, and each moved once to `confirmed`
/// with the bank's reference or to `rejected` with its reason.
///
/// Their state changes skip fsync, as a payment's outcome does: the host
/// keeps each record under its key and replays it, so a change a power
/// cut takes back costs a resend, not a second record.
extension TellerStore {
    /// The oldest queued till event when it is due now, or nil. One that
    /// waits out a retry keeps its place, so the bank meets a till's
    /// opening before its closing, as it meets payments in queue order.
    func nextTillEventToSend() throws(TellerError) -> QueuedTillEvent? {
        let row = try translating {
            try database.queryFirst("""
                SELECT id, idempotency_key, till_id, kind, payload, attempts, next_attempt_at_ms FROM till_events
                WHERE state = 'queued' ORDER BY id LIMIT 1
                """) { (row: Statement) throws(SQLiteError) in
                (id: try row.int64("id"), key: try row.text("idempotency_key"), tillID: try row.int64("till_id"), kind: try row.text("kind"),
                 payload: try row.blob("payload"), attempts: try row.int64("attempts"), nextAttemptAt: try row.optionalInt64("next_attempt_at_ms"))
            }
        }
        guard let row, (row.nextAttemptAt ?? 0) <= clock.now().millisecondsSince1970 else { return nil }
        guard let key = IdempotencyKey(rawValue: row.key) else {
            throw TellerError.storage(detail: "\(path): till event \(row.id) has the malformed key '\(row.key)'")
        }
        return QueuedTillEvent(id: row.id, key: key, tillID: row.tillID, kind: row.kind, payload: row.payload, attempts: Int(row.attempts))
    }

    /// When the oldest queued till event is due, or nil when none is queued.
    func nextTillEventAt() throws(TellerError) -> Date? {
        try translating {
            try database.queryInt64("SELECT coalesce(next_attempt_at_ms, 0) FROM till_events WHERE state = 'queued' ORDER BY id LIMIT 1")
                .map(Date.init(millisecondsSince1970:))
        }
    }

    /// The bank recorded the event: confirmed with its reference.
    func recordTillEvent(_ id: Int64, reference: String) throws(TellerError) {
        try setTillEventState(id, "confirmed", extra: "host_reference = ?, last_error = NULL, next_attempt_at_ms = NULL", [.text(reference)])
    }

    /// The bank refused the event for good (a 4xx that retrying cannot change).
    func rejectTillEvent(_ id: Int64, reason: String) throws(TellerError) {
        try setTillEventState(id, "rejected", extra: "last_error = ?, attempts = attempts + 1, next_attempt_at_ms = NULL", [.text(reason)])
    }

    /// The attempt failed in a way a later one may not: queued again, due at `next`.
    func scheduleTillEventRetry(_ id: Int64, at next: Date, error: String) throws(TellerError) {
        try setTillEventState(id, "queued", extra: "last_error = ?, attempts = attempts + 1, next_attempt_at_ms = ?",
                              [.text(error), .integer(next.millisecondsSince1970)])
    }

    /// Till events not yet at the bank.
    func queuedTillEventCount() throws(TellerError) -> Int {
        try translating { Int(try database.queryInt64("SELECT count(*) FROM till_events WHERE state = 'queued'") ?? 0) }
    }

    /// Moves a queued event to `state`; throws when it is not queued (or does not exist).
    private func setTillEventState(_ id: Int64, _ state: String, extra: String, _ values: [SQLValue]) throws(TellerError) {
        try translating {
            try database.withoutFsync {
                try database.run("UPDATE till_events SET state = ?, updated_at_ms = ?, \(extra) WHERE id = ? AND state = 'queued'",
                                 [.text(state), .integer(clock.now().millisecondsSince1970)] + values + [.integer(id)])
                guard database.changes == 1 else {
                    throw TellerError.storage(detail: "\(path): till event \(id) cannot move to \(state) (not queued)")
                }
            }
        }
    }
}
