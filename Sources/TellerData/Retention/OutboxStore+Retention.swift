import FoundationEssentials
import TellerCore
import SQLite

/// Whether the bank has settled a payment, as retention asks it: SQL over
/// the outbox row `alias`, for the queries that decide what may go.
enum SettledPayment {
    /// Confirmed; rejected and acknowledged by an operator; or voided before
    /// it ever left (the bank has nothing of it to answer) once the bank has
    /// confirmed a later payment, so a void is never removed while the host
    /// has been down since.
    static func sql(_ alias: String) -> String {
        // coalesce: with nothing confirmed the comparison is NULL, which NOT would not turn into true.
        "coalesce(\(alias).state = 'confirmed' OR (\(alias).state = 'rejected' AND \(alias).acknowledged_at_ms IS NOT NULL)"
            + " OR (\(alias).state = 'voided' AND \(alias).id < (SELECT max(id) FROM outbox WHERE state = 'confirmed')), 0)"
    }
}

extension OutboxStore {
    /// Removes up to `limit` of the oldest payments taken before `cutoff`
    /// that are settled, inside the caller's transaction: confirmed by the
    /// bank, rejected by it and acknowledged by an operator, or voided
    /// before they ever left (the bank has nothing of them to answer).
    /// Never a queued, sending or needs-review row, nor an unacknowledged
    /// rejection (the schema's `outbox_keeps_unsettled` refuses them too).
    /// Kept besides, whatever a reader still needs: a cash payment of a
    /// till that is open or was closed after `cutoff` (the till's report
    /// reads its payments), a payment with a slip still waiting to print,
    /// and a reversal while the payment it reverses is still there (the
    /// one-live-reversal index must keep seeing it).
    ///
    /// `outbox_totals` is left alone: its pending bucket counts only queued
    /// and sending rows, and a day's bucket is only read on its own day.
    /// - Returns: how many rows were removed.
    func prune(before cutoff: Date, limit: Int) throws -> Int {
        let cutoffMilliseconds = Int64(cutoff.millisecondsSince1970)
        try database.run("""
            DELETE FROM outbox WHERE id IN (
                SELECT o.id FROM outbox AS o
                WHERE o.created_at_ms < ?1
                  AND \(SettledPayment.sql("o"))
                  AND (o.till_id IS NULL OR EXISTS (SELECT 1 FROM tills AS t WHERE t.id = o.till_id AND t.closed_at_ms < ?1)
                       OR NOT EXISTS (SELECT 1 FROM tills AS t WHERE t.id = o.till_id))
                  AND NOT EXISTS (SELECT 1 FROM print_jobs AS p WHERE p.state != 'printed' AND p.document = 'receipt' AND p.subject = o.idempotency_key)
                  AND (o.reverses IS NULL OR NOT EXISTS (SELECT 1 FROM outbox AS x WHERE x.idempotency_key = o.reverses))
                ORDER BY o.id LIMIT ?2)
            """, [.integer(cutoffMilliseconds), .integer(Int64(limit))])
        let removed = database.changes
        // Past days' limit buckets are never read again (the daily limit reads today's).
        if removed > 0 {
            // Past days' limit buckets only: never 'pending', the rows per state ('rows:…') nor the unacknowledged ('unacknowledged:…').
            try database.run("""
                DELETE FROM outbox_totals WHERE bucket != 'pending' AND bucket NOT LIKE 'rows:%' AND bucket NOT LIKE 'unacknowledged:%' AND bucket < ?
                """, [.text(localDay(cutoff))])
        }
        return removed
    }
}

extension TillStore {
    /// Removes up to `limit` of the oldest tills closed before `cutoff`,
    /// with their events, inside the caller's transaction: only a till
    /// whose opening and closing the bank has recorded (or refused for
    /// good), whose payments are gone already, and whose report is not
    /// waiting to print.
    /// - Returns: the tills and the till events removed.
    func prune(before cutoff: Date, limit: Int) throws -> (tills: Int, events: Int) {
        let ids = try database.query("""
            SELECT t.id FROM tills AS t
            WHERE t.closed_at_ms IS NOT NULL AND t.closed_at_ms < ?1
              AND NOT EXISTS (SELECT 1 FROM till_events AS e WHERE e.till_id = t.id AND e.state = 'queued')
              AND NOT EXISTS (SELECT 1 FROM outbox AS o WHERE o.till_id = t.id)
              AND NOT EXISTS (SELECT 1 FROM print_jobs AS p WHERE p.state != 'printed' AND p.document = 'till_report' AND p.subject = CAST(t.id AS TEXT))
            ORDER BY t.id LIMIT ?2
            """, [.integer(cutoff.millisecondsSince1970), .integer(Int64(limit))]) { (row: Statement) throws(SQLiteError) in try row.int64("id") }
        var events = 0
        for id in ids {
            try database.run("DELETE FROM till_events WHERE till_id = ?", [.integer(id)])
            events += database.changes
            try database.run("DELETE FROM tills WHERE id = ?", [.integer(id)])
        }
        return (ids.count, events)
    }
}

extension PrintQueueStore {
    /// Removes up to `limit` of the oldest printed jobs asked for before
    /// `cutoff`, inside the caller's transaction, once the bank has settled
    /// what they printed (the payment of a receipt, the till events of a
    /// till report); a job still waiting or printing stays (the schema's
    /// `print_jobs_keep_waiting` refuses it too). Their journal `print`
    /// entries go with the journal's days.
    /// - Returns: how many jobs were removed.
    func prune(before cutoff: Date, limit: Int) throws -> Int {
        try database.run("""
            DELETE FROM print_jobs WHERE id IN (
                SELECT p.id FROM print_jobs AS p WHERE p.state = 'printed' AND p.created_at_ms < ?
                  AND NOT EXISTS (SELECT 1 FROM outbox AS o WHERE p.document = 'receipt' AND o.idempotency_key = p.subject
                                  AND NOT \(SettledPayment.sql("o")))
                  AND NOT EXISTS (SELECT 1 FROM till_events AS e WHERE p.document = 'till_report' AND e.till_id = CAST(p.subject AS INTEGER)
                                  AND e.state = 'queued')
                ORDER BY p.id LIMIT ?)
            """, [.integer(cutoff.millisecondsSince1970), .integer(Int64(limit))])
        return database.changes
    }
}
