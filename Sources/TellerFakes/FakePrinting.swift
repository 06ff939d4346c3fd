import FoundationEssentials
import TellerCore

/// The print queue in memory: the jobs asked for, in order; none print.
public actor FakePrintQueue: PrintQueuePort {
    public private(set) var jobs: [PrintJob] = []
    private let clock: FakeClock
    private let outbox: FakeOutbox

    public init(clock: FakeClock, outbox: FakeOutbox) {
        self.clock = clock
        self.outbox = outbox
    }

    public func reprintReceipt(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) -> PrintJob {
        guard try await payment(key) != nil else { throw .noSuchEntry(key) }
        return add(.receipt, subject: key.rawValue, isCopy: true, by: operatorID)
    }

    public func queueTillReport(tillID: Int64, by operatorID: OperatorID) async throws(TellerError) -> PrintJob {
        add(.tillReport, subject: String(tillID), isCopy: false, by: operatorID)
    }

    public func waitingPrintJobs(limit: Int) async throws(TellerError) -> [PrintJob] {
        Array(jobs.filter { $0.state != .printed }.prefix(limit))
    }

    public func waitingPrintJobCount() async throws(TellerError) -> Int { jobs.filter { $0.state != .printed }.count }

    public func payment(_ key: IdempotencyKey) async throws(TellerError) -> OutboxEntry? {
        try await outbox.entries().first { $0.key == key }
    }

    public func beginPrinting(_ jobID: Int64) async throws(TellerError) {}
    public func finishPrinting(_ jobID: Int64) async throws(TellerError) {}
    public func printingFailed(_ jobID: Int64, error: String, mayHavePrinted: Bool) async throws(TellerError) {}
    public func documentFailed(_ jobID: Int64, error: String) async throws(TellerError) {}

    private func add(_ document: PrintJob.Document, subject: String, isCopy: Bool, by operatorID: OperatorID) -> PrintJob {
        let job = PrintJob(id: Int64(jobs.count + 1), document: document, subject: subject, language: Localization.language, isCopy: isCopy,
                           state: .queued, requestedBy: operatorID, createdAt: clock.now())
        jobs.append(job)
        return job
    }
}

/// A printer whose state the test sets.
public actor FakePrinterStatus: PrinterStatusPort {
    public private(set) var report: PrinterReport

    public init(_ report: PrinterReport = PrinterReport(address: "tcp:192.0.2.7:9100", condition: .ready, waitingJobs: 0)) {
        self.report = report
    }

    public func set(_ report: PrinterReport) { self.report = report }
    public func printerReport() async -> PrinterReport { report }
}
