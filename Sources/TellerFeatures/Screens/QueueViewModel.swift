import FoundationEssentials
import Observation
import TellerCore

/// The queue: every row with its state; rejected rows need an operator's
/// acknowledgement, with the reason shown; "sync now" wakes the engine.
///
/// Rows the operator must act on (a rejection not yet acknowledged, any row
/// that needs review) come first, then the rest; each group keeps the
/// outbox's order, newest first. The rows are built once per load (and
/// again when the day turns, since a time shows its date unless it is
/// today), not on every frame: after days offline there may be a thousand.
@MainActor @Observable
public final class QueueViewModel {
    public struct Row: Hashable, Sendable {
        public let key: IdempotencyKey
        public let title: String
        public let amount: String
        public let stateText: String
        public let detail: String
        public let needsAcknowledgement: Bool
        /// Where the row is.
        public let state: OutboxState
        /// What the colour of `stateText` means.
        public let tone: Tone

        /// Its receipt can be printed again: a printer is configured and the row was not voided.
        public let canReprint: Bool

        /// A rejection nobody acknowledged yet, or a row a person must settle with the bank (acknowledged or not).
        public var mustBeActedOn: Bool {
            switch state {
            case .rejected(_, let acknowledged): !acknowledged
            case .needsReview: true
            case .queued, .sending, .confirmed, .voided: false
            }
        }
    }

    public enum State: Hashable, Sendable {
        case loading
        case loaded
        case failed(String)
    }

    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public private(set) var entries: [OutboxEntry] = [] {
        didSet { builtRows = nil }
    }
    public private(set) var state: State = .loading
    /// ``rows`` as last built, and the moment they were built for.
    @ObservationIgnored private var builtRows: (rows: [Row], at: LocalTime)?

    init(dependencies: FeatureDependencies, navigator: any Navigator) {
        self.dependencies = dependencies
        self.navigator = navigator
    }

    public var title: String { tr("Queue") }
    public var syncNowTitle: String { tr("Sync now") }
    public var backTitle: String { tr("Back") }
    public var acknowledgeTitle: String { tr("Acknowledge") }
    /// The spoken name of a row's Acknowledge button, naming what is acknowledged.
    public func acknowledgeAccessibilityLabel(_ row: Row) -> String {
        if case .needsReview = row.state { return tr("Acknowledge needs-review {row}", ["row": row.title]) }
        return tr("Acknowledge rejected {row}", ["row": row.title])
    }
    public var emptyText: String { tr("Nothing has been entered on this terminal yet.") }
    /// Jumps to the first row: the ones to act on, then the newest.
    public var toTopTitle: String { tr("Top") }
    public var toTopAccessibilityLabel: String { tr("Scroll to the top of the queue") }
    /// Jumps to the last row, the oldest.
    public var toBottomTitle: String { tr("Oldest") }
    public var toBottomAccessibilityLabel: String { tr("Scroll to the oldest row of the queue") }

    public var summaryText: String {
        let pending = entries.filter { $0.state.isPending }.count
        let toAcknowledge = rows.filter(\.needsAcknowledgement).count
        var parts = [trn("{count} waiting to be sent", "{count} waiting to be sent", count: pending)]
        if toAcknowledge > 0 { parts.append(trn("{count} rejection to acknowledge", "{count} rejections to acknowledge", count: toAcknowledge)) }
        return parts.joined(separator: " · ")
    }

    /// Every row in the order shown: the ones to act on first.
    public var rows: [Row] {
        let now = dependencies.now(shownBy: navigator)
        let today = LocalTime(now, in: dependencies.time.zone)
        if let builtRows, builtRows.at.isSameDay(as: today) { return builtRows.rows }
        let all = entries.map { row($0, now: now) }
        let rows = all.filter(\.mustBeActedOn) + all.filter { !$0.mustBeActedOn }
        builtRows = (rows, today)
        return rows
    }

    private func row(_ entry: OutboxEntry, now: Date) -> Row {
        let who = entry.request.counterparty.map {
            tr("{from} → {to}", ["from": entry.request.account.displayed(), "to": $0.displayed()])
        } ?? entry.request.account.displayed()
        let time = dependencies.time.dayAndClock(entry.createdAt, now: now)
        let stateText: String
        var detail = "\(who) · \(time)"
        var needsAcknowledgement = false
        // A voided payment's receipt would read Queued: it is not printed again.
        var isVoided = false
        let tone: Tone
        switch entry.state {
        case .queued:
            stateText = tr("Queued")
            tone = .neutral
            if let problem = entry.lastProblem { detail = "\(ProblemText.text(problem)) · \(detail)" }
        case .sending:
            stateText = tr("Sending")
            tone = .neutral
        case .confirmed(let reference):
            stateText = tr("Confirmed {reference}", ["reference": Localization.leftToRight(reference)])
            tone = .positive
        case .rejected(let reason, let acknowledged):
            stateText = acknowledged ? tr("Rejected (acknowledged)") : tr("Rejected")
            // Once told to the customer, a rejection is history, not an alarm.
            tone = acknowledged ? .neutral : .negative
            detail = "\(ReasonText.text(reason, detail: entry.lastError)) · \(detail)"
            needsAcknowledgement = !acknowledged
        case .voided:
            isVoided = true
            stateText = tr("Voided")
            tone = .neutral
        case .needsReview(let reason, let acknowledged):
            stateText = acknowledged ? tr("Needs review (acknowledged)") : tr("Needs review")
            // Acknowledged or not, the row is not final: someone still has to settle it with the bank.
            tone = .attention
            // The problem in the operator's language; the stored reason is the record's own (English) words.
            detail = "\(entry.lastProblem.map(ProblemText.text) ?? Localization.verbatim(reason)) · \(detail)"
            needsAcknowledgement = !acknowledged
        }
        return Row(key: entry.key, title: tr("{kind} {amount}", ["kind": AccountViewModel.kindTitle(entry.request.kind), "amount": MoneyFormatting.text(entry.request.amount)]),
                   amount: MoneyFormatting.text(entry.request.amount), stateText: stateText, detail: detail,
                   needsAcknowledgement: needsAcknowledgement, state: entry.state, tone: tone,
                   canReprint: dependencies.printQueue != nil && !isVoided)
    }

    public func load() async {
        do throws(TellerError) {
            entries = try await dependencies.outbox.entries()
            state = .loaded
        } catch {
            state = .failed(ErrorText.text(error))
        }
    }

    public func acknowledge(_ key: IdempotencyKey) async {
        guard let op = navigator?.signedInOperator else { return }
        do throws(TellerError) {
            try await dependencies.outbox.acknowledge(key, by: op.id)
            navigator?.outboxChanged()
        } catch {
            state = .failed(ErrorText.text(error))
        }
        await load()
    }

    public var reprintTitle: String { tr("Reprint") }
    /// The spoken name of a row's Reprint button, naming whose receipt.
    public func reprintAccessibilityLabel(_ row: Row) -> String {
        tr("Reprint receipt of {row} as a copy", ["row": row.title])
    }

    /// What the last reprint request came to; nil before any.
    public private(set) var printMessage: String?

    /// Queues one more receipt of the row `key`, marked COPY.
    public func reprint(_ key: IdempotencyKey) async {
        guard let queue = dependencies.printQueue, let op = navigator?.signedInOperator else { return }
        do throws(TellerError) {
            _ = try await queue.reprintReceipt(key, by: op.id)
            await navigator?.printQueueChanged()
            printMessage = tr("A copy is on its way to the printer.")
        } catch {
            printMessage = tr("Could not queue the copy: {problem}", ["problem": ErrorText.text(error)])
        }
    }

    public func syncNow() async {
        await dependencies.sync.syncNow()
    }

    public func handle(_ event: SyncEvent) async {
        switch event {
        case .queued, .confirmed, .rejected, .needsReview, .sending: await load()
        case .online, .offline, .problem: break
        }
    }

    public func back() { navigator?.pop() }
}

extension QueueViewModel: ScreenViewModel {
    public var screenName: String { "queue" }
    public var screenKind: ScreenKind { .queue(self) }
    public func appeared() async { await load() }
}
