import TellerCore

/// A till's end-of-day report on paper. The till plugs its own in
/// (``PrintJobDocuments/init(queue:header:time:format:catalog:signedIn:tillReports:)``);
/// until then a till report job stays waiting with an error that says so.
public protocol TillReportSource: Sendable {
    /// The report of the till `tillID`, written in the current language
    /// (the job's: the caller has set it).
    func tillReportDocument(tillID: String) async throws(TellerError) -> PrintedDocument
}

/// Why a job's document could not be made. The job stays waiting with
/// this as its last error, and the jobs after it still print.
public struct PrintDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    public let job: PrintJob
    /// What is missing or failed, for the technician (the log, diagnostics).
    public let reason: String

    public init(job: PrintJob, reason: String) {
        self.job = job
        self.reason = reason
    }

    public var description: String { "\(job): \(reason)" }
}

/// The one place a print job becomes the document it prints: a payment's
/// receipt as the payment stands now, or a till's report from the
/// injected ``TillReportSource``; marked as a copy when the job is one,
/// and written in the job's language whatever the terminal speaks by then.
public struct PrintJobDocuments: Sendable {
    private let queue: any PrintQueuePort
    private let header: PaymentReceipt.Header
    private let time: TimeFormatting
    private let format: @Sendable () -> RegionalFormat
    private let catalog: @Sendable (Language) -> Catalog?
    private let signedIn: @Sendable () async -> Operator?
    private let tillReports: (any TillReportSource)?

    /// - Parameters:
    ///   - queue: Where a receipt's payment is read.
    ///   - header: The bank and terminal every slip names.
    ///   - time: The terminal's wall clock and date format.
    ///   - format: The bank's regional format (currency display, digits); the job's language replaces its language.
    ///   - catalog: The compiled catalog of a language; nil for English or when it cannot be read.
    ///   - signedIn: Who is signed in now: their name prints on the receipts of the payments they took.
    ///   - tillReports: The till's reports; nil until the till plugs its source in.
    public init(queue: any PrintQueuePort, header: PaymentReceipt.Header, time: TimeFormatting,
                format: @escaping @Sendable () -> RegionalFormat, catalog: @escaping @Sendable (Language) -> Catalog?,
                signedIn: @escaping @Sendable () async -> Operator?, tillReports: (any TillReportSource)? = nil) {
        self.queue = queue
        self.header = header
        self.time = time
        self.format = format
        self.catalog = catalog
        self.signedIn = signedIn
        self.tillReports = tillReports
    }

    /// The document `job` prints.
    /// - Throws: ``PrintDocumentError`` naming the job when its payment is
    ///   gone, the database fails, or no till report source is plugged in.
    public func document(for job: PrintJob) async throws(PrintDocumentError) -> PrintedDocument {
        var format = format()
        format.language = job.language
        let catalog = catalog(job.language)
        let document: PrintedDocument
        switch job.document {
        case .receipt:
            guard let key = IdempotencyKey(rawValue: job.subject) else {
                throw PrintDocumentError(job: job, reason: "'\(job.subject)' is not a payment's idempotency key")
            }
            let found: OutboxEntry?
            do { found = try await queue.payment(key) } catch {
                throw PrintDocumentError(job: job, reason: "its payment cannot be read: \(error)")
            }
            guard let entry = found else { throw PrintDocumentError(job: job, reason: "there is no payment \(key) in the outbox") }
            let op = await signedIn()
            document = Localization.with(format, catalog: catalog) {
                PaymentReceipt.document(for: entry, header: header, operator: op, time: time)
            }
        case .tillReport:
            guard let tillReports else {
                throw PrintDocumentError(job: job, reason: "no till report source is plugged in (the till is not wired to printing); the job stays queued")
            }
            let made = await Localization.with(format, catalog: catalog) { () async -> Result<PrintedDocument, TellerError> in
                do throws(TellerError) {
                    return .success(try await tillReports.tillReportDocument(tillID: job.subject))
                } catch {
                    return .failure(error)
                }
            }
            switch made {
            case .success(let report): document = report
            case .failure(let error): throw PrintDocumentError(job: job, reason: "the till report cannot be made: \(error)")
            }
        }
        guard job.isCopy else { return document }
        // The mark in the job's language too, not in the one the terminal speaks now.
        return Localization.with(format, catalog: catalog) { document.markedAsCopy() }
    }
}
