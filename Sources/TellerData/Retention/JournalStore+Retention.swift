import FoundationEssentials
import TellerCore
import SQLite

extension JournalStore {
    /// The oldest entries that share one local day, when that day is before
    /// `cutoffDay`: the next day retention may remove. Reads that day only.
    /// - Parameter dayOf: the terminal's local day of an instant ("YYYY-MM-DD").
    func oldestDay(before cutoffDay: String, dayOf: (Date) -> String) throws -> (entries: ClosedRange<Int64>, day: String)? {
        var run: (first: Int64, last: Int64, day: String)?
        try database.forEach("SELECT sequence, time_ms FROM journal ORDER BY sequence") { (row: Statement) throws(SQLiteError) -> Bool in
            let sequence = try row.int64("sequence")
            let day = dayOf(Date(millisecondsSince1970: try row.int64("time_ms")))
            guard let found = run else {
                if day < cutoffDay { run = (sequence, sequence, day) }
                return day < cutoffDay
            }
            guard day == found.day else { return false }
            run = (found.first, sequence, day)
            return true
        }
        return run.map { ($0.first...$0.last, $0.day) }
    }

    /// Why `entries` may not go yet, or nil when the bank has settled
    /// everything they record: an entry that names a payment or a till
    /// event (its `key`) whose row is still there and not settled (a
    /// payment queued, sending, needing review or rejected without an
    /// operator's acknowledgement; a till event not recorded by the bank).
    /// An entry whose row is gone names one retention removed, which it
    /// only ever does once settled. Entries that name no key (sign-ins,
    /// prints, checkpoints, a till closing's approval) need no answer.
    func unsettled(_ entries: ClosedRange<Int64>) throws -> String? {
        try database.queryFirst("""
            SELECT j.sequence, j.kind, j.key, o.state AS payment_state, e.state AS event_state FROM (
                SELECT sequence, kind, CASE WHEN json_valid(payload) THEN json_extract(payload, '$.key') END AS key
                FROM journal WHERE sequence BETWEEN ?1 AND ?2) AS j
            LEFT JOIN outbox AS o ON o.idempotency_key = j.key
            LEFT JOIN till_events AS e ON e.idempotency_key = j.key
            WHERE j.key IS NOT NULL
              AND ((o.id IS NOT NULL AND NOT \(SettledPayment.sql("o")))
                   OR e.state = 'queued')
            ORDER BY j.sequence LIMIT 1
            """, [.integer(entries.lowerBound), .integer(entries.upperBound)]) { (row: Statement) throws(SQLiteError) in
            let key = try row.text("key")
            var what = "till event \(key) is not recorded by the bank"
            if let state = try row.optionalText("payment_state") {
                switch state {
                case "rejected": what = "payment \(key) is rejected and not acknowledged"
                case "voided": what = "payment \(key) is voided and the bank has confirmed nothing after it"
                default: what = "payment \(key) is \(state)"
                }
            }
            return "journal entry \(try row.int64("sequence")) (\(try row.text("kind"))): \(what)"
        }
    }

    /// The first broken link among `entries`, walked from the hash the
    /// chain carries into the first of them, or nil when they are intact.
    /// Retention never removes entries it could not verify: a checkpoint
    /// over a changed entry would hide the change.
    func firstBreak(in entries: ClosedRange<Int64>) throws -> JournalBreak? {
        var previous = JournalChain.genesis
        if entries.lowerBound > 1 {
            guard let carried = try carrier(of: entries.lowerBound - 1) else { return .uncarried(missing: 1...(entries.lowerBound - 1)) }
            previous = carried.hash
        }
        let (found, next, _) = try walk(from: entries.lowerBound, through: entries.upperBound, previous: previous)
        if found == nil, next <= entries.upperBound { return .gap(missing: next...entries.upperBound, next: nil) }
        return found
    }

    /// Appends the checkpoint that carries the chain over `entries` (the
    /// oldest there are, of local day `day`) and removes them, inside the
    /// caller's transaction. The schema's `journal_never_deleted` lets the
    /// removal through only because of that checkpoint.
    /// - Returns: the checkpoint.
    @discardableResult
    func prune(_ entries: ClosedRange<Int64>, day: String, at time: Date) throws -> JournalEntry {
        guard let hash = try database.queryText("SELECT hash FROM journal WHERE sequence = ?", [.integer(entries.upperBound)]) else {
            throw TellerError.storage(detail: "\(database.path): journal entry \(entries.upperBound) is not there to be carried")
        }
        var counts: [JournalKind: Int] = [:]
        for (stored, count) in try database.query("SELECT kind, count(*) AS entries FROM journal WHERE sequence BETWEEN ? AND ? GROUP BY kind",
                                                  [.integer(entries.lowerBound), .integer(entries.upperBound)], row: {
            (row: Statement) throws(SQLiteError) in (try row.text("kind"), Int(try row.int64("entries")))
        }) {
            guard let kind = JournalKind(rawValue: stored) else {
                throw SQLiteError(code: .corrupt, message: "journal entries \(entries) hold the unknown kind '\(stored)'", path: database.path)
            }
            counts[kind] = count
        }
        let checkpoint = try append(.checkpoint(first: entries.lowerBound, through: entries.upperBound, hash: hash, day: day, counts: counts), at: time)
        try database.run("DELETE FROM journal WHERE sequence <= ?", [.integer(entries.upperBound)])
        guard Int64(database.changes) == Int64(entries.count) else {
            throw TellerError.storage(detail: "\(database.path): retention removed \(database.changes) journal entries, not the \(entries.count) of \(entries)")
        }
        return checkpoint
    }
}
