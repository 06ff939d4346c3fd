import FoundationEssentials
import TellerCore
import SQLite

/// The print queue's port (``PrintQueueStore`` keeps it; docs/architecture.md
/// "Printing a receipt"): a payment's receipts are queued in its enqueue's
/// transaction, reprints and till reports on their own; the print spooler
/// takes the waiting jobs in order. Nothing here waits for a printer, so a
/// printer that is absent, out of paper or failing never blocks or undoes a payment.
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
        try printQueue.queueReceipts(for: entry, copies: receiptCopies.withLock { $0 }, at: time)
    }

    public func reprintReceipt(_ key: IdempotencyKey, by operatorID: OperatorID) throws(TellerError) -> PrintJob {
        let job = try translating {
            try database.inTransaction(.immediate) {
                guard try outbox.contains(key) else { throw TellerError.noSuchEntry(key) }
                return try printQueue.insert(.receipt, subject: key.rawValue, isCopy: true, by: operatorID, at: clock.now())
            }
        }
        for observer in printObservers { observer() }
        return job
    }

    public func queueTillReport(tillID: Int64, by operatorID: OperatorID) throws(TellerError) -> PrintJob {
        let job = try translating {
            try database.inTransaction(.immediate) {
                guard try tills.exists(tillID) else { throw TellerError.till(.noSuchTill(tillID)) }
                return try printQueue.insert(.tillReport, subject: String(tillID), isCopy: false, by: operatorID, at: clock.now())
            }
        }
        for observer in printObservers { observer() }
        return job
    }

    public func waitingPrintJobs(limit: Int) throws(TellerError) -> [PrintJob] {
        try translating { try printQueue.waitingJobs(limit: limit) }
    }

    public func waitingPrintJobCount() throws(TellerError) -> Int {
        try translating { try printQueue.waitingJobCount() }
    }

    /// Every job, newest first, for tests and `teller status`.
    public func printJobs() throws(TellerError) -> [PrintJob] {
        try translating { try printQueue.jobs() }
    }

    public func payment(_ key: IdempotencyKey) throws(TellerError) -> OutboxEntry? {
        try entry(for: key)
    }

    public func beginPrinting(_ jobID: Int64) throws(TellerError) {
        try translating { try printQueue.begin(jobID) }
    }

    public func finishPrinting(_ jobID: Int64) throws(TellerError) {
        try translating {
            try database.inTransaction(.immediate) {
                let now = clock.now()
                try appendJournal(.printed(try printQueue.finish(jobID, at: now)), at: now)
            }
        }
    }

    public func printingFailed(_ jobID: Int64, error: String, mayHavePrinted: Bool) throws(TellerError) {
        try translating { try printQueue.failed(jobID, error: error, mayHavePrinted: mayHavePrinted) }
    }

    public func documentFailed(_ jobID: Int64, error: String) throws(TellerError) {
        try translating { try printQueue.documentFailed(jobID, error: error) }
    }
}
