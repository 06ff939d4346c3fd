import FoundationEssentials
import TellerCore

/// The queue: every row with its state; rejected rows need an operator's
/// acknowledgement, with the reason shown; "sync now" wakes the engine.
@MainActor
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
    }

    public enum State: Hashable, Sendable {
        case loading
        case loaded
        case failed(String)
    }

    private let dependencies: FeatureDependencies
    private weak var navigator: (any Navigator)?
    public private(set) var entries: [OutboxEntry] = []
    public private(set) var state: State = .loading

    init(dependencies: FeatureDependencies, navigator: any Navigator) {
        self.dependencies = dependencies
        self.navigator = navigator
    }

    public var title: String { "Queue" }
    public var syncNowTitle: String { "Sync now" }
    public var backTitle: String { "Back" }
    public var acknowledgeTitle: String { "Acknowledge" }
    /// The spoken name of a row's Acknowledge button, naming what is acknowledged.
    public func acknowledgeAccessibilityLabel(_ row: Row) -> String {
        if case .needsReview = row.state { return "Acknowledge needs-review \(row.title)" }
        return "Acknowledge rejected \(row.title)"
    }
    public var emptyText: String { "Nothing has been entered on this terminal yet." }

    public var summaryText: String {
        let pending = entries.filter { $0.state.isPending }.count
        let toAcknowledge = rows.filter(\.needsAcknowledgement).count
        var parts = [pending == 1 ? "1 waiting to be sent" : "\(pending) waiting to be sent"]
        if toAcknowledge > 0 { parts.append(toAcknowledge == 1 ? "1 rejection to acknowledge" : "\(toAcknowledge) rejections to acknowledge") }
        return parts.joined(separator: " · ")
    }

    public var rows: [Row] {
        let now = dependencies.clock.now()
        return entries.map { entry in
            let who = entry.request.counterparty.map { "\(entry.request.account.grouped) → \($0.grouped)" } ?? entry.request.account.grouped
            let time = dependencies.time.dayAndClock(entry.createdAt, now: now)
            let stateText: String
            var detail = "\(who) · \(time)"
            var needsAcknowledgement = false
            let tone: Tone
            switch entry.state {
            case .queued:
                stateText = "Queued"
                tone = .neutral
                if let problem = entry.lastProblem { detail = "\(ProblemText.text(problem)) · \(detail)" }
            case .sending:
                stateText = "Sending"
                tone = .neutral
            case .confirmed(let reference):
                stateText = "Confirmed \(reference)"
                tone = .positive
            case .rejected(let reason, let acknowledged):
                stateText = acknowledged ? "Rejected (acknowledged)" : "Rejected"
                // Once told to the customer, a rejection is history, not an alarm.
                tone = acknowledged ? .neutral : .negative
                detail = "\(ReasonText.text(reason, detail: entry.lastError)) · \(detail)"
                needsAcknowledgement = !acknowledged
            case .needsReview(let reason, let acknowledged):
                stateText = acknowledged ? "Needs review (acknowledged)" : "Needs review"
                // Acknowledged or not, the row is not final: someone still has to settle it with the bank.
                tone = .attention
                detail = "\(reason) · \(detail)"
                needsAcknowledgement = !acknowledged
            }
            return Row(key: entry.key, title: "\(AccountViewModel.kindTitle(entry.request.kind)) \(MoneyFormatting.text(entry.request.amount))",
                       amount: MoneyFormatting.text(entry.request.amount), stateText: stateText, detail: detail,
                       needsAcknowledgement: needsAcknowledgement, state: entry.state, tone: tone)
        }
    }

    public func load() async {
        do throws(TellerError) {
            entries = try await dependencies.outbox.entries()
            state = .loaded
        } catch {
            state = .failed(error.description)
        }
        navigator?.invalidate()
    }

    public func acknowledge(_ key: IdempotencyKey) async {
        guard let op = navigator?.signedInOperator else { return }
        do throws(TellerError) {
            try await dependencies.outbox.acknowledge(key, by: op.id)
            navigator?.outboxChanged()
        } catch {
            state = .failed(error.description)
        }
        await load()
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
    public func appeared() async { await load() }
}
