import FoundationEssentials
import TellerCore
import SQLite

/// What retention removed so far (`retention`, one row): counted in the
/// transaction of each batch, so the counts never disagree with what is
/// gone, and read by `teller status` and the metrics.
///
/// Not thread-safe: a part of ``TellerStore``, used on its connection only.
final class RetentionLedger {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Adds one batch's counts, inside the batch's transaction.
    func count(_ counts: RetentionReport.Counts, at now: Date) throws {
        try database.run("""
            UPDATE retention SET last_pruned_at_ms = ?, outbox_rows = outbox_rows + ?, tills = tills + ?, till_events = till_events + ?,
                                 print_jobs = print_jobs + ?, journal_entries = journal_entries + ?
            WHERE id = 1
            """, [.integer(now.millisecondsSince1970), .integer(Int64(counts.outboxRows)), .integer(Int64(counts.tills)),
                  .integer(Int64(counts.tillEvents)), .integer(Int64(counts.printJobs)), .integer(Int64(counts.journalEntries))])
    }

    /// A pass found nothing more to remove: when, and what holds the journal back.
    func passEnded(at now: Date, heldBack: String?) throws {
        try database.run("UPDATE retention SET last_pass_at_ms = ?, held_back = ? WHERE id = 1",
                         [.integer(now.millisecondsSince1970), heldBack.map { .text($0) } ?? .null])
    }

    func report() throws -> RetentionReport {
        try database.queryFirst("SELECT * FROM retention WHERE id = 1") { (row: Statement) throws(SQLiteError) in
            RetentionReport(
                pruned: RetentionReport.Counts(outboxRows: Int(try row.int64("outbox_rows")), tills: Int(try row.int64("tills")),
                                               tillEvents: Int(try row.int64("till_events")), printJobs: Int(try row.int64("print_jobs")),
                                               journalEntries: Int(try row.int64("journal_entries"))),
                lastPrunedAt: try row.optionalInt64("last_pruned_at_ms").map(Date.init(millisecondsSince1970:)),
                lastPassAt: try row.optionalInt64("last_pass_at_ms").map(Date.init(millisecondsSince1970:)),
                heldBack: try row.optionalText("held_back"))
        } ?? RetentionReport()
    }
}
