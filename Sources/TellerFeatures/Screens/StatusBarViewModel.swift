import FoundationEssentials
import Observation
import TellerCore

/// The status bar on every screen: connection, queue, last sync, who and
/// where, and the clock.
@MainActor @Observable
public final class StatusBarViewModel {
    private let dependencies: FeatureDependencies
    /// The clock's ticks so far: the state a tick changes. ``now`` reads it,
    /// so every frame that shows the time is redrawn when the clock moves.
    private var ticks = 0
    public private(set) var isOnline = false
    /// Why nothing goes out, when something answers but not as the bank does.
    public private(set) var problem: SyncProblem?
    public private(set) var summary: QueueSummary?
    public private(set) var lastSyncAt: Date?
    public private(set) var signedIn: Operator?

    init(dependencies: FeatureDependencies) {
        self.dependencies = dependencies
    }

    /// The wall-clock time what the screens show is measured against: the
    /// clock itself, read through the tick count, so a frame that shows the
    /// time depends on the tick and is drawn again at the next one.
    public var now: Date {
        _ = ticks
        return dependencies.clock.now()
    }

    /// The once-a-second tick: the clock and every "… ago" move on.
    func clockTicked() { ticks &+= 1 }

    func update(online: Bool, problem: SyncProblem?, clockVerified: Bool = true, lastSyncAt: Date?, summary: QueueSummary?, signedIn: Operator?) {
        isOnline = online
        self.problem = problem
        self.clockVerified = clockVerified
        self.lastSyncAt = lastSyncAt
        if let summary { self.summary = summary }
        self.signedIn = signedIn
    }

    /// True when the host answers, but not the way the bank answers.
    public var hasHostProblem: Bool { problem?.kind.isHostProblem == true }

    public var connectionText: String {
        if hasHostProblem { return tr("Host problem") }
        return isOnline ? tr("Online") : tr("Offline")
    }

    public var connectionAccessibilityLabel: String {
        if let problem, hasHostProblem { return tr("Connection: host problem, {problem}, transactions are queued", ["problem": ProblemText.text(problem.kind)]) }
        return isOnline ? tr("Connection: online") : tr("Connection: offline, transactions are queued")
    }

    public var queueText: String {
        guard let summary, summary.pendingCount > 0 else { return tr("Queue empty") }
        let amounts = summary.pendingByCurrency.values.sorted { $0.currency.code < $1.currency.code }.map(MoneyFormatting.text)
        return trn("{count} queued · {amounts}", "{count} queued · {amounts}", count: summary.pendingCount, ["amounts": amounts.joined(separator: " + ")])
    }

    public var queueAccessibilityLabel: String { tr("Queue: {summary}", ["summary": queueText]) }

    public var rejectedText: String? {
        guard let count = summary?.unacknowledgedRejections, count > 0 else { return nil }
        return trn("{count} rejected", "{count} rejected", count: count)
    }

    /// Rows a person must look at because the bank's answer did not match or the request was refused as malformed.
    public var reviewText: String? {
        guard let count = summary?.unacknowledgedReviews, count > 0 else { return nil }
        return trn("{count} to review", "{count} to review", count: count)
    }

    public var reviewAccessibilityLabel: String? {
        reviewText.map { tr("{problem}: open the queue and acknowledge", ["problem": $0]) }
    }

    public var syncText: String {
        guard let lastSyncAt else { return tr("Never synced") }
        return tr("Synced {when}", ["when": dependencies.time.relative(lastSyncAt, now: now)])
    }

    public var whoText: String {
        let terminal = dependencies.terminal.terminalID.map(Localization.leftToRight) ?? tr("unprovisioned")
        guard let signedIn else { return terminal }
        return tr("{name} · {terminal}", ["name": Localization.verbatim(signedIn.displayName), "terminal": terminal])
    }

    /// The receipt printer as the spooler last saw it; nil without a printer.
    public private(set) var printer: PrinterReport?

    func printerChanged(_ report: PrinterReport) { printer = report }

    /// The printer's badge: shown while it cannot print or slips wait for
    /// it, and while its paper runs low; nil when all is well (or no printer).
    public var printerText: String? {
        guard let printer else { return nil }
        let waiting = printer.waitingJobs
        switch (Self.conditionText(printer), waiting) {
        case (nil, 0): return nil
        case (nil, _): return trn("{count} slip to print", "{count} slips to print", count: waiting)
        case (let problem?, 0): return problem
        case (let problem?, _):
            return trn("{problem} · {count} to print", "{problem} · {count} to print", count: waiting, ["problem": problem])
        }
    }

    /// The printer's condition in words that name it, or nil when it is ready (or not yet known).
    private nonisolated static func conditionText(_ printer: PrinterReport) -> String? {
        switch printer.condition {
        case .paperOut: tr("Printer: no paper")
        case .coverOpen: tr("Printer: cover open")
        case .offline: tr("Printer offline")
        case .error: tr("Printer error")
        case .paperNearEnd: tr("Printer: paper low")
        case .ready, .unknown: nil
        }
    }

    /// Whether the printer needs someone (paper, cover, power): the badge warns.
    public var printerNeedsAttention: Bool {
        guard let printer else { return false }
        return !printer.canPrint && printer.condition != .unknown
    }

    public var printerAccessibilityLabel: String? {
        guard let text = printerText else { return nil }
        // A condition already names the printer ("Printer: no paper · 1 to print"); slips alone do not.
        return printer.flatMap(Self.conditionText) == nil ? tr("Receipt printer: {state}", ["state": text]) : text
    }

    /// The time on the operator's wall clock, or "Clock not set" while the
    /// terminal's clock is below what it knows has passed (a board without a
    /// real-time clock that booted at 1970).
    public var clockText: String { clockVerified ? dependencies.time.clock(now) : tr("Clock not set") }
    public private(set) var clockVerified = true
}
