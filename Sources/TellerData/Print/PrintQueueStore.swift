import FoundationEssentials
import TellerCore
import SQLite

/// The print queue (`print_jobs`, docs/architecture.md "Printing a
/// receipt"): each job's insert, its moves as the print spooler prints
/// it, and the reads of the waiting ones. Journaling a printed job, and
/// the payment or till a job prints, are the owner's: ``TellerStore``
/// wraps them and these writes in one transaction.
///
/// Not thread-safe: a part of ``TellerStore``, used on its connection only.
final class PrintQueueStore {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Queues `copies` receipts of the payment `entry` inside the caller's
    /// (the enqueue's) transaction, so they commit or roll back with it;
    /// all but the first are marked as copies.
    func queueReceipts(for entry: OutboxEntry, copies: Int, at time: Date) throws {
        for copy in 0..<copies {
            try insert(.receipt, subject: entry.key.rawValue, isCopy: copy > 0, by: entry.request.operatorID, at: time)
        }
    }

    /// How many receipts of payment `key` are queued and not yet taken by
    /// the spooler: each prints the payment as it stands when it is taken.
    func queuedReceiptCount(of key: IdempotencyKey) throws -> Int {
        Int(try database.queryInt64("""
            SELECT count(*) FROM print_jobs WHERE state = 'queued' AND document = 'receipt' AND subject = ?
            """, [.text(key.rawValue)]) ?? 0)
    }

    /// Queues one job inside the caller's transaction.
    @discardableResult
    func insert(_ document: PrintJob.Document, subject: String, isCopy: Bool, by operatorID: OperatorID, at time: Date) throws -> PrintJob {
        // The language of the moment: a receipt prints in the words the operator and customer saw.
        let language = Localization.language
        try database.run("""
            INSERT INTO print_jobs (document, subject, language, copy, requested_by, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(document.rawValue), .text(subject), .text(language.code), .integer(isCopy ? 1 : 0), .text(operatorID.rawValue),
                  .integer(time.millisecondsSince1970)])
        return PrintJob(id: database.lastInsertRowID, document: document, subject: subject, language: language, isCopy: isCopy, state: .queued,
                        requestedBy: operatorID, createdAt: time)
    }

    func waitingJobs(limit: Int) throws -> [PrintJob] {
        try database.query("SELECT \(PrintJobColumns.list) FROM print_jobs WHERE state != 'printed' ORDER BY id LIMIT ?",
                           [.integer(Int64(limit))], row: PrintJobColumns.job)
    }

    func waitingJobCount() throws -> Int {
        Int(try database.queryInt64("SELECT count(*) FROM print_jobs WHERE state != 'printed'") ?? 0)
    }

    /// Every job, newest first.
    func jobs() throws -> [PrintJob] {
        try database.query("SELECT \(PrintJobColumns.list) FROM print_jobs ORDER BY id DESC", row: PrintJobColumns.job)
    }

    /// Moves a queued job to `printing`, one attempt counted, in a transaction of its own.
    func begin(_ jobID: Int64) throws {
        try database.inTransaction(.immediate) {
            try database.run("UPDATE print_jobs SET state = 'printing', attempts = attempts + 1 WHERE id = ? AND state = 'queued'",
                             [.integer(jobID)])
            guard database.changes == 1 else { throw notWaiting(jobID) }
        }
    }

    /// Moves a job being printed to `printed`, inside the caller's transaction.
    /// - Returns: the printed job, for its journal entry.
    func finish(_ jobID: Int64, at now: Date) throws -> PrintJob {
        try database.run("""
            UPDATE print_jobs SET state = 'printed', printed_at_ms = ?, last_error = NULL WHERE id = ? AND state = 'printing'
            """, [.integer(now.millisecondsSince1970), .integer(jobID)])
        guard database.changes == 1,
              let job = try database.queryFirst("SELECT \(PrintJobColumns.list) FROM print_jobs WHERE id = ?", [.integer(jobID)],
                                                row: PrintJobColumns.job)
        else { throw notWaiting(jobID) }
        return job
    }

    /// Puts a job back in the queue, marked as a copy when it may be half on paper.
    func failed(_ jobID: Int64, error: String, mayHavePrinted: Bool) throws {
        try database.run("""
            UPDATE print_jobs SET state = 'queued', last_error = ?, copy = CASE WHEN ? THEN 1 ELSE copy END
            WHERE id = ? AND state != 'printed'
            """, [.text(error), .integer(mayHavePrinted ? 1 : 0), .integer(jobID)])
    }

    /// Counts an attempt whose document could not be made; the job is
    /// queued again (the spooler makes it once the job is marked printing,
    /// whose mark already counted the attempt).
    func documentFailed(_ jobID: Int64, error: String) throws {
        try database.run("""
            UPDATE print_jobs SET attempts = attempts + (state = 'queued'), state = 'queued', last_error = ?
            WHERE id = ? AND state != 'printed'
            """, [.text(error), .integer(jobID)])
    }

    private func notWaiting(_ jobID: Int64) -> TellerError {
        .storage(detail: "\(database.path): print job \(jobID) is not in the state this step expects (printed already, or gone)")
    }
}

/// The `print_jobs` columns every job query selects, and how they become a job.
enum PrintJobColumns {
    static let list = "id, document, subject, language, copy, state, attempts, last_error, requested_by, created_at_ms"

    static func job(_ row: Statement) throws(SQLiteError) -> PrintJob {
        let id = try row.int64("id")
        func corrupt(_ what: String) -> SQLiteError {
            SQLiteError(code: .corrupt, message: "print job \(id) has \(what)", sql: row.sql)
        }
        let (storedDocument, storedState, storedLanguage) = (try row.text("document"), try row.text("state"), try row.text("language"))
        guard let document = PrintJob.Document(rawValue: storedDocument) else { throw corrupt("the unknown document '\(storedDocument)'") }
        guard let state = PrintJob.State(rawValue: storedState) else { throw corrupt("the unknown state '\(storedState)'") }
        guard let language = Language(code: storedLanguage) else { throw corrupt("the unknown language '\(storedLanguage)'") }
        guard let operatorID = OperatorID(try row.text("requested_by")) else { throw corrupt("a malformed operator id") }
        return PrintJob(id: id, document: document, subject: try row.text("subject"), language: language, isCopy: try row.int64("copy") != 0,
                        state: state, attempts: Int(try row.int64("attempts")), lastError: try row.optionalText("last_error"),
                        requestedBy: operatorID, createdAt: Date(millisecondsSince1970: try row.int64("created_at_ms")))
    }
}
