import Device
import FoundationEssentials
import TellerCore
import TellerFeatures

/// Prints the waiting jobs of the print queue (``PrintQueuePort``) in
/// order, and keeps what the printer last said for the status bar and
/// diagnostics (``PrinterStatusPort``).
///
/// Each pass asks the printer's status first (DLE EOT 1 to 4). While it
/// cannot print (offline, out of paper, its cover open, an error) the jobs
/// wait and the spooler asks again after a backoff that doubles up to a
/// cap; idle, it asks every ``Timing/idlePoll``, so the status bar shows a
/// printer out of paper before the next payment. A job is committed
/// `printing` before its first byte goes out and `printed`, with its
/// journal entry, once the printer took every byte; a job whose document
/// cannot be made (a till report with no source plugged in) keeps its
/// error and the jobs after it still print.
///
/// It never blocks: the printer's I/O runs on ``PrinterLine``'s queue, and
/// between passes the spooler sleeps until woken (a payment, a reprint) or
/// until its next pass is due.
public actor PrintSpooler: PrinterStatusPort {
    /// How often the spooler asks the printer again.
    public struct Timing: Hashable, Sendable {
        /// The first wait after the printer could not print; it doubles per failed pass.
        public var retryBase: Duration
        /// The longest wait while jobs are waiting.
        public var retryCap: Duration
        /// How often an idle spooler asks the printer's status anyway.
        public var idlePoll: Duration
        /// How often a job whose document could not be made is tried again.
        public var documentRetry: Duration

        public init(retryBase: Duration = .seconds(1), retryCap: Duration = .seconds(30), idlePoll: Duration = .seconds(30),
                    documentRetry: Duration = .seconds(60)) {
            self.retryBase = retryBase
            self.retryCap = retryCap
            self.idlePoll = idlePoll
            self.documentRetry = documentRetry
        }

        /// The wait after `failures` passes in a row that could not print: base, 2 base, 4 base … up to the cap.
        func backoff(after failures: Int) -> Duration {
            let doublings = min(max(failures - 1, 0), 20)
            return min(retryCap, retryBase * (1 << doublings))
        }
    }

    /// How long a customer's receipt waits for the bank's answer
    /// (`receipt_wait_s`): a slip prints what the payment is when it
    /// prints, so without the wait an online payment the bank posts within
    /// a second would often print Queued. Only the first slip of a payment
    /// waits, and only while the terminal is online; copies and reprints
    /// print at once.
    public struct ReceiptWait: Sendable {
        /// The longest wait, from the moment the slip is next to print.
        public var limit: Duration
        /// How often the payment's state is read again while waiting.
        public var poll: Duration
        /// True while the terminal can reach the bank.
        public var online: @Sendable () async -> Bool

        public init(limit: Duration, poll: Duration = .milliseconds(50), online: @escaping @Sendable () async -> Bool) {
            self.limit = limit
            self.poll = poll
            self.online = online
        }
    }

    /// The most jobs one pass reads; a longer queue takes more passes, back to back.
    public static let jobsPerPass = 32

    private let queue: any PrintQueuePort
    private let documents: PrintJobDocuments
    private let line: PrinterLine
    private let timing: Timing
    private let receiptWait: ReceiptWait?
    /// Receipts still waiting to print that have had their wait: a slip
    /// the printer failed on prints again at once. A job leaves the set
    /// once printed, so it holds the slips in hand, not every slip of the run.
    private var waited: Set<Int64> = []
    private let log: @Sendable (String) -> Void
    private var report: PrinterReport
    private var observers: [@Sendable (PrinterReport) -> Void] = []
    /// Passes in a row that found the printer unable to print.
    private var failedPasses = 0
    /// The pause between passes; a queued job ends it.
    private let wakeup = Wakeup()
    private var runner: Task<Void, Never>?

    /// - Parameters:
    ///   - queue: The print queue (the terminal's database).
    ///   - documents: Makes each job's document.
    ///   - line: The printer.
    ///   - receiptWait: How long a payment's first slip waits for the bank's answer; nil prints at once.
    ///   - log: One line per change of the printer's condition or error, and per job.
    public init(queue: any PrintQueuePort, documents: PrintJobDocuments, line: PrinterLine, timing: Timing = Timing(),
                receiptWait: ReceiptWait? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.queue = queue
        self.documents = documents
        self.line = line
        self.timing = timing
        self.receiptWait = receiptWait
        self.log = log
        report = PrinterReport(address: line.address, condition: .unknown, waitingJobs: 0)
    }

    public func printerReport() -> PrinterReport { report }

    /// Calls `observer` after every change of the report (the status bar's redraw).
    public func onChange(_ observer: @escaping @Sendable (PrinterReport) -> Void) {
        observers.append(observer)
    }

    /// Starts printing in the background.
    public func start() {
        guard runner == nil else { return }
        runner = Task { await self.run() }
    }

    /// Stops after the current step; a job being written finishes or fails first.
    public func stop() {
        runner?.cancel()
        runner = nil
        wake()
    }

    /// A job was queued: the next pass starts now rather than after its wait.
    public func wake() {
        wakeup.wake()
    }

    private func run() async {
        while !Task.isCancelled {
            let next = await drainOnce()
            if Task.isCancelled { break }
            _ = await wakeup.sleep(for: next)
        }
    }

    /// One pass: the printer's status, then the waiting jobs in order
    /// while it can print.
    /// - Returns: how long to wait before the next pass (zero when more jobs wait than one pass reads).
    public func drainOnce() async -> Duration {
        let jobs: [PrintJob]
        do {
            jobs = try await queue.waitingPrintJobs(limit: Self.jobsPerPass)
        } catch {
            note(error: "print queue: \(error)")
            return timing.retryCap
        }
        // The status bar counts a slip from the moment it waits, not only once the pass ends.
        await recount()
        guard await printerCanPrint() else {
            await recount()
            return jobs.isEmpty ? timing.idlePoll : timing.backoff(after: failedPasses)
        }
        var documentFailures = 0
        for job in jobs {
            if Task.isCancelled { break }
            switch await printOne(job) {
            case .printed: break
            case .documentFailed: documentFailures += 1
            case .printerFailed:
                failedPasses += 1
                await recount()
                return timing.backoff(after: failedPasses)
            }
        }
        await recount()
        if jobs.count == Self.jobsPerPass, documentFailures < jobs.count { return .zero }
        return documentFailures > 0 ? timing.documentRetry : timing.idlePoll
    }

    private enum Outcome { case printed, documentFailed, printerFailed }

    private func printOne(_ job: PrintJob) async -> Outcome {
        await waitForTheBank(job)
        do {
            try await queue.beginPrinting(job.id)
        } catch {
            note(error: "print queue: \(job): \(error)")
            return .printerFailed
        }
        // Made once the job is marked printing: a void committed before is on
        // the paper (TellerStore.void counts a queued receipt as its void slip).
        let document: PrintedDocument
        do {
            document = try await documents.document(for: job)
        } catch {
            // Logged when it first fails and when the reason changes, not on every pass.
            if job.lastError != error.description { log("printer: \(error)") }
            try? await queue.documentFailed(job.id, error: error.description)
            return .documentFailed
        }
        switch await line.print(document) {
        case .success:
            do {
                try await queue.finishPrinting(job.id)
            } catch {
                // Left 'printing': the next start prints it again, marked as a copy.
                note(error: "print queue: \(job) printed, but not recorded: \(error)")
                return .printerFailed
            }
            waited.remove(job.id)
            log("printer: printed \(job)\(document.logSummary.map { " as " + $0 } ?? "")")
            failedPasses = 0
            update { $0.lastError = nil }
            return .printed
        case .failure(let failure):
            let mayHavePrinted = if case .printer(_, true) = failure { true } else { false }
            try? await queue.printingFailed(job.id, error: failure.description, mayHavePrinted: mayHavePrinted)
            if case .printer = failure { update { $0.condition = .offline } }
            note(error: "\(job) failed\(mayHavePrinted ? " part way; it prints again marked as a copy" : ""): \(failure)")
            return .printerFailed
        }
    }

    /// Before a payment's first slip: while the terminal is online and the
    /// payment is queued or sending, waits until the bank has answered or
    /// ``ReceiptWait/limit`` has passed, so that the slip says what the
    /// bank did. Returns at once for copies, till reports, a job already
    /// waited for in this run, or an offline terminal.
    private func waitForTheBank(_ job: PrintJob) async {
        guard let wait = receiptWait, wait.limit > .zero, job.document == .receipt, !job.isCopy,
              let key = IdempotencyKey(rawValue: job.subject), waited.insert(job.id).inserted else { return }
        let deadline = ContinuousClock.now + wait.limit
        while ContinuousClock.now < deadline, !Task.isCancelled {
            guard let entry = try? await queue.payment(key), entry.state.kind.isPending, await wait.online() else { return }
            do { try await Task.sleep(for: min(wait.poll, deadline - ContinuousClock.now)) } catch { return }
        }
    }

    /// Asks the printer; true when it can print now.
    private func printerCanPrint() async -> Bool {
        switch await line.status() {
        case .success(let status):
            let condition = Self.condition(status.condition)
            update {
                $0.condition = condition
                $0.lastAnswerAt = Date()
            }
            if report.canPrint { return true }
            failedPasses += 1
            return false
        case .failure(let error):
            update { $0.condition = .offline }
            failedPasses += 1
            note(error: error.description)
            return false
        }
    }

    private func recount() async {
        guard let count = try? await queue.waitingPrintJobCount() else { return }
        update { $0.waitingJobs = count }
    }

    private func note(error: String) {
        update { $0.lastError = error }
    }

    /// Changes the report; logs a new condition or error and tells the observers, once per change.
    private func update(_ change: (inout PrinterReport) -> Void) {
        var changed = report
        change(&changed)
        guard changed != report else { return }
        if changed.condition != report.condition { log("printer: \(line.address) is \(changed.condition.rawValue)") }
        if let error = changed.lastError, error != report.lastError { log("printer: \(error)") }
        report = changed
        for observer in observers { observer(changed) }
    }

    /// Device's word for the printer's state, as the features read it.
    static func condition(_ condition: PrinterCondition) -> PrinterReport.Condition {
        switch condition {
        case .ready: .ready
        case .paperNearEnd: .paperNearEnd
        case .paperOut: .paperOut
        case .coverOpen: .coverOpen
        case .error: .error
        case .offline: .offline
        }
    }
}
