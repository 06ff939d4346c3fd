import TellerCore

/// The receipt: honest about where the money is. "Queued" when the row is
/// on disk, "Confirmed" with the bank's reference, or "Rejected" with why.
@MainActor
public final class ReceiptViewModel {
    public enum Status: Hashable, Sendable {
        case queued
        case confirmed(reference: String)
        case rejected(reason: String)
    }

    private let dependencies: FeatureDependencies
    private weak var navigator: (any Navigator)?
    public let entry: OutboxEntry
    public private(set) var status: Status = .queued

    init(dependencies: FeatureDependencies, navigator: any Navigator, entry: OutboxEntry) {
        self.dependencies = dependencies
        self.navigator = navigator
        self.entry = entry
        switch entry.state {
        case .confirmed(let reference): status = .confirmed(reference: reference)
        case .rejected(let reason, _): status = .rejected(reason: reason)
        default: status = .queued
        }
    }

    public var statusTitle: String {
        switch status {
        case .queued: "Queued"
        case .confirmed: "Confirmed"
        case .rejected: "Rejected"
        }
    }

    public var statusDetail: String {
        switch status {
        case .queued: "Saved on this terminal. It will be sent to the bank; this receipt updates when the bank answers."
        case .confirmed(let reference): "Posted by the bank. Reference \(reference)."
        case .rejected(let reason): "The bank refused it: \(ReasonText.text(reason)). The customer's money did not move."
        }
    }

    public var lines: [ReviewViewModel.Line] {
        var lines = [ReviewViewModel.Line(label: "Type", value: AccountViewModel.kindTitle(entry.request.kind)),
                     ReviewViewModel.Line(label: "Account", value: entry.request.account.grouped)]
        if let counterparty = entry.request.counterparty { lines.append(.init(label: "To", value: counterparty.grouped)) }
        lines.append(.init(label: "Amount", value: MoneyFormatting.text(entry.request.amount)))
        lines.append(.init(label: "Time", value: dependencies.time.dayAndClock(entry.createdAt, now: dependencies.clock.now())))
        lines.append(.init(label: "Receipt", value: entry.key.receiptNumber))
        if case .confirmed(let reference) = status { lines.append(.init(label: "Bank reference", value: reference)) }
        return lines
    }

    public var doneTitle: String { "Done" }

    public func handle(_ event: SyncEvent) {
        switch event {
        case .confirmed(let key, let reference) where key == entry.key: status = .confirmed(reference: reference)
        case .rejected(let key, let reason) where key == entry.key: status = .rejected(reason: reason)
        default: return
        }
        navigator?.invalidate()
    }

    public func done() { navigator?.popToHome() }
}

extension ReceiptViewModel: ScreenViewModel {
    public var screenName: String { "receipt" }
}
