import FoundationEssentials

/// One slip waiting in the print queue (table `print_jobs`), or printed
/// from it. A job names what to print, never its bytes: the document is
/// written when it prints, in the language the job was asked in.
public struct PrintJob: Hashable, Sendable, CustomStringConvertible {
    /// What the slip is. The raw values are the words `print_jobs.document` stores.
    public enum Document: String, Hashable, Sendable {
        /// A payment's customer receipt; the subject is the payment's idempotency key.
        case receipt
        /// A till's end-of-day report; the subject is the till's id.
        case tillReport = "till_report"
    }

    /// Where the job is. The raw values are the words `print_jobs.state` stores.
    public enum State: String, Hashable, Sendable {
        /// Waiting for the printer.
        case queued
        /// Committed before the first byte went out; found so at start, the
        /// job was cut off and prints again marked as a copy.
        case printing
        /// The printer took every byte; its journal entry committed with this state.
        case printed
    }

    public let id: Int64
    public let document: Document
    /// The payment's idempotency key (receipt) or the till's id (till report).
    public let subject: String
    /// The language the slip is written in: the terminal's when it was asked for.
    public let language: Language
    /// A second copy, a reprint, or a job cut off by a power cut: printed marked COPY.
    public let isCopy: Bool
    public let state: State
    /// Attempts that began printing or failed to make the document.
    public let attempts: Int
    /// Why the last attempt failed, for the technician (the log, diagnostics).
    public let lastError: String?
    /// The operator who asked for it (who took the payment, or asked for the reprint).
    public let requestedBy: OperatorID
    public let createdAt: Date

    public init(id: Int64, document: Document, subject: String, language: Language, isCopy: Bool, state: State, attempts: Int = 0,
                lastError: String? = nil, requestedBy: OperatorID, createdAt: Date) {
        self.id = id
        self.document = document
        self.subject = subject
        self.language = language
        self.isCopy = isCopy
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.requestedBy = requestedBy
        self.createdAt = createdAt
    }

    /// For logs and errors: "print job 7 (receipt 3f2a9c1e…, copy)".
    public var description: String {
        let what = switch document {
        case .receipt: "receipt of payment \(subject)"
        case .tillReport: "till report of till \(subject)"
        }
        return "print job \(id) (\(what)\(isCopy ? ", copy" : ""))"
    }
}

/// The print queue in the terminal's database. Jobs wait there until the
/// printer takes them, so a printer that is absent, out of paper or open
/// never blocks or undoes a payment: a payment's receipts are queued in the
/// transaction of its enqueue (``OutboxPort/enqueue(_:)``), as many as the
/// configured `receipt_copies`, none without a printer.
///
/// The screens ask for reprints and till reports; the print spooler takes
/// the waiting jobs in order and records how each went.
public protocol PrintQueuePort: Sendable {
    /// Queues one more receipt of the payment `key`, marked as a copy, in the current language.
    /// - Throws: ``TellerError/noSuchEntry(_:)`` when there is no such payment.
    func reprintReceipt(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) -> PrintJob
    /// Queues the report of the till `tillID` (``TillSession/id``), in the current language.
    /// - Throws: ``TillRefusal/noSuchTill(_:)`` when this terminal never opened it.
    func queueTillReport(tillID: Int64, by operatorID: OperatorID) async throws(TellerError) -> PrintJob
    /// The jobs not yet printed, oldest first, at most `limit`.
    func waitingPrintJobs(limit: Int) async throws(TellerError) -> [PrintJob]
    /// How many jobs are not yet printed.
    func waitingPrintJobCount() async throws(TellerError) -> Int
    /// The payment a receipt job prints, as it is now; nil when there is none.
    func payment(_ key: IdempotencyKey) async throws(TellerError) -> OutboxEntry?
    /// Commits `printing` (and one more attempt) before the first byte of the job goes out.
    func beginPrinting(_ jobID: Int64) async throws(TellerError)
    /// Commits `printed` with the journal's `print` entry, in one transaction.
    func finishPrinting(_ jobID: Int64) async throws(TellerError)
    /// The job goes back to waiting with `error`. When bytes may have reached
    /// the paper (`mayHavePrinted`), it prints again marked as a copy.
    func printingFailed(_ jobID: Int64, error: String, mayHavePrinted: Bool) async throws(TellerError)
    /// The job's document could not be made (it stays waiting, the others go on).
    func documentFailed(_ jobID: Int64, error: String) async throws(TellerError)
}
