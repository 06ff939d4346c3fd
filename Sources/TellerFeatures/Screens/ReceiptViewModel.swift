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
        case .queued: tr("Queued")
        case .confirmed: tr("Confirmed")
        case .rejected: tr("Rejected")
        }
    }

    public var statusDetail: String {
        switch status {
        case .queued: tr("Saved on this terminal. It will be sent to the bank; this receipt updates when the bank answers.")
        case .confirmed(let reference): tr("Posted by the bank. Reference {reference}.", ["reference": Localization.leftToRight(reference)])
        case .rejected(let reason): tr("The bank refused it: {reason}. The customer's money did not move.", ["reason": ReasonText.text(reason)])
        }
    }

    public var lines: [ReviewViewModel.Line] {
        var lines = [ReviewViewModel.Line(label: tr("Type"), value: AccountViewModel.kindTitle(entry.request.kind)),
                     ReviewViewModel.Line(label: tr("Account"), value: entry.request.account.displayed())]
        if let counterparty = entry.request.counterparty { lines.append(.init(label: tr("To"), value: counterparty.displayed())) }
        lines.append(.init(label: tr("Amount"), value: MoneyFormatting.text(entry.request.amount)))
        lines.append(.init(label: tr("Time"), value: dependencies.time.dayAndClock(entry.createdAt, now: dependencies.clock.now())))
        lines.append(.init(label: tr("Receipt"), value: Localization.leftToRight(entry.key.receiptNumber)))
        if case .confirmed(let reference) = status { lines.append(.init(label: tr("Bank reference"), value: Localization.leftToRight(reference))) }
        return lines
    }

    public var doneTitle: String { tr("Done") }

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
