import TellerCore

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
/// till (``TillReport``); marked as a copy when the job is one,
/// and written in the job's language whatever the terminal speaks by then.
public struct PrintJobDocuments: Sendable {
    private let queue: any PrintQueuePort
    private let header: PaymentReceipt.Header
    private let time: TimeFormatting
    private let format: @Sendable () -> RegionalFormat
    private let catalog: @Sendable (Language) -> Catalog?
    private let staff: @Sendable (OperatorID) async -> Operator?
    private let till: (any TillPort)?

    /// - Parameters:
    ///   - queue: Where a receipt's payment is read.
    ///   - header: The bank and terminal every slip names.
    ///   - time: The terminal's wall clock and date format.
    ///   - format: The bank's regional format (currency display, digits); the job's language replaces its language.
    ///   - catalog: The compiled catalog of a language; nil for English or when it cannot be read.
    ///   - staff: The member of staff a number names, when the terminal
    ///     knows them (``OperatorSessionPort/knownOperator(_:)``): operators
    ///     and approving supervisors print by name and number.
    ///   - till: Where a till report's till is read; nil on a terminal without tills.
    public init(queue: any PrintQueuePort, header: PaymentReceipt.Header, time: TimeFormatting,
                format: @escaping @Sendable () -> RegionalFormat, catalog: @escaping @Sendable (Language) -> Catalog?,
                staff: @escaping @Sendable (OperatorID) async -> Operator?, till: (any TillPort)? = nil) {
        self.queue = queue
        self.header = header
        self.time = time
        self.format = format
        self.catalog = catalog
        self.staff = staff
        self.till = till
    }

    /// The document `job` prints.
    /// - Throws: ``PrintDocumentError`` naming the job when its payment is
    ///   gone, its till cannot be read, or the terminal keeps no tills.
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
            let named = await known([entry.request.operatorID] + (entry.request.approvedBy.map { [$0] } ?? []))
            document = Localization.with(format, catalog: catalog) {
                PaymentReceipt.document(for: entry, header: header, staff: named, time: time)
            }
        case .tillReport:
            guard let till else { throw PrintDocumentError(job: job, reason: "this terminal keeps no tills") }
            guard let id = Int64(job.subject) else { throw PrintDocumentError(job: job, reason: "'\(job.subject)' is not a till's number") }
            let found: TillSession?
            do { found = try await till.till(id) } catch {
                throw PrintDocumentError(job: job, reason: "its till cannot be read: \(error)")
            }
            guard let session = found else { throw PrintDocumentError(job: job, reason: "there is no till \(id)") }
            let named = await known([session.operatorID] + (session.closing?.approvedBy.map { [$0] } ?? []))
            document = Localization.with(format, catalog: catalog) { TillReport.document(for: session, header: header, staff: named, time: time) }
        }
        guard job.isCopy else { return document }
        // The mark in the job's language too, not in the one the terminal speaks now.
        return Localization.with(format, catalog: catalog) { document.markedAsCopy() }
    }

    /// The members of staff among `ids` whose names the terminal knows.
    private func known(_ ids: [OperatorID]) async -> [Operator] {
        var found: [Operator] = []
        for id in ids { if let op = await staff(id) { found.append(op) } }
        return found
    }
}
