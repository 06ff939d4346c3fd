import FoundationEssentials
import TellerCore

/// The print queue (table `print_jobs`, docs/architecture.md "Printing a
/// receipt"): a payment's receipts are queued in its enqueue's transaction,
/// reprints and till reports on their own; the print spooler takes the
/// waiting jobs in order. Nothing here waits for a printer, so a printer
/// that is absent, out of paper or failing never blocks or undoes a payment.
extension TellerStore: PrintQueuePort {
    /// How many receipts each payment queues from now on: `receipt_copies`
    /// (1 or 2), or 0 when no printer is configured. The second is marked
    /// as a copy.
    public nonisolated func configurePrinting(receiptCopies copies: Int) {
        precondition((0...2).contains(copies), "a payment prints 0, 1 or 2 receipts")
        receiptCopies.withLock { $0 = copies }
    }

    /// Registers a callback run after a reprint or a till report is
    /// queued (the spooler's wake-up; a payment's receipts wake it through
    /// ``onEnqueue(_:)``).
    public func onPrintJobQueued(_ observer: @escaping @Sendable () -> Void) {
        printObservers.append(observer)
    }

    /// Queues the payment `entry`'s receipts inside the caller's (the
    /// enqueue's) transaction, so they commit or roll back with the payment.
    func queueReceipts(for entry: OutboxEntry, at time: Date) throws {
        for copy in 0..<receiptCopies.withLock({ $0 }) {
            try insertJob(.receipt, subject: entry.key.rawValue, isCopy: copy > 0, by: entry.request.operatorID, at: time)
        }
    }

    public func reprintReceipt(_ key: IdempotencyKey, by operatorID: OperatorID) throws(TellerError) -> PrintJob {
        let job = try translating {
            try database.inTransaction(.immediate) {
                guard try database.queryInt64("SELECT id FROM outbox WHERE idempotency_key = ?", [.text(key.rawValue)]) != nil else {
                    throw TellerError.noSuchEntry(key)
                }
                return try insertJob(.receipt, subject: key.rawValue, isCopy: true, by: operatorID, at: clock.now())
            }
        }
        for observer in printObservers { observer() }
        return job
    }

    public func queueTillReport(tillID: Int64, by operatorID: OperatorID) throws(TellerError) -> PrintJob {
        let job = try translating {
            try database.inTransaction(.immediate) {
                guard try database.queryInt64("SELECT id FROM tills WHERE id = ?", [.integer(tillID)]) != nil else {
                    throw TellerError.till(.noSuchTill(tillID))
                }
                return try insertJob(.tillReport, subject: String(tillID), isCopy: false, by: operatorID, at: clock.now())
            }
        }
        for observer in printObservers { observer() }
        return job
    }

    public func waitingPrintJobs(limit: Int) throws(TellerError) -> [PrintJob] {
        try translating {
            try database.query("SELECT \(PrintJobColumns.list) FROM print_jobs WHERE state != 'printed' ORDER BY id LIMIT ?",
                               [.integer(Int64(limit))], row: PrintJobColumns.job)
        }
    }

    public func waitingPrintJobCount() throws(TellerError) -> Int {
        try translating { Int(try database.queryInt64("SELECT count(*) FROM print_jobs WHERE state != 'printed'") ?? 0) }
    }

    /// Every job, newest first, for tests and `teller status`.
    public func printJobs() throws(TellerError) -> [PrintJob] {
        try translating {
            try database.query("SELECT \(PrintJobColumns.list) FROM print_jobs ORDER BY id DESC", row: PrintJobColumns.job)
        }
    }

    public func payment(_ key: IdempotencyKey) throws(TellerError) -> OutboxEntry? {
        try entry(for: key)
    }

    public func beginPrinting(_ jobID: Int64) throws(TellerError) {
        try translating {
            try database.inTransaction(.immediate) {
                try database.run("UPDATE print_jobs SET state = 'printing', attempts = attempts + 1 WHERE id = ? AND state = 'queued'",
                                 [.integer(jobID)])
                guard database.changes == 1 else { throw Self.notWaiting(jobID, path: path) }
            }
        }
    }

    public func finishPrinting(_ jobID: Int64) throws(TellerError) {
        try translating {
            try database.inTransaction(.immediate) {
                let now = clock.now()
                try database.run("""
                    UPDATE print_jobs SET state = 'printed', printed_at_ms = ?, last_error = NULL WHERE id = ? AND state = 'printing'
                    """, [.integer(now.millisecondsSince1970), .integer(jobID)])
                guard database.changes == 1,
                      let job = try database.queryFirst("SELECT \(PrintJobColumns.list) FROM print_jobs WHERE id = ?", [.integer(jobID)],
                                                        row: PrintJobColumns.job)
                else { throw Self.notWaiting(jobID, path: path) }
                try appendJournal(.printed(job), at: now)
            }
        }
    }

    public func printingFailed(_ jobID: Int64, error: String, mayHavePrinted: Bool) throws(TellerError) {
        try translating {
            try database.run("""
                UPDATE print_jobs SET state = 'queued', last_error = ?, copy = CASE WHEN ? THEN 1 ELSE copy END
                WHERE id = ? AND state != 'printed'
                """, [.text(error), .integer(mayHavePrinted ? 1 : 0), .integer(jobID)])
        }
    }

    public func documentFailed(_ jobID: Int64, error: String) throws(TellerError) {
        try translating {
            try database.run("UPDATE print_jobs SET attempts = attempts + 1, last_error = ? WHERE id = ? AND state = 'queued'",
                             [.text(error), .integer(jobID)])
        }
    }

    @discardableResult
    private func insertJob(_ document: PrintJob.Document, subject: String, isCopy: Bool, by operatorID: OperatorID, at time: Date) throws -> PrintJob {
        // The language of the moment: a receipt prints in the words the operator and customer saw.
        let language = Localization.language
        try database.run("""
            INSERT INTO print_jobs (document, subject, language, copy, requested_by, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(document.rawValue), .text(subject), .text(language.code), .integer(isCopy ? 1 : 0), .text(operatorID.rawValue),
                  .integer(time.millisecondsSince1970)])
        return PrintJob(id: database.lastInsertRowID, document: document, subject: subject, language: language, isCopy: isCopy, state: .queued,
                        requestedBy: operatorID, createdAt: time)
    }

    private static func notWaiting(_ jobID: Int64, path: String) -> TellerError {
        .storage(detail: "\(path): print job \(jobID) is not in the state this step expects (printed already, or gone)")
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
