import Observation
import TellerCore

/// The receipt: honest about where the money is. "Queued" when the row is
/// on disk, "Confirmed" with the bank's reference, or "Rejected" with why.
@MainActor @Observable
public final class ReceiptViewModel {
    public enum Status: Hashable, Sendable {
        case queued
        case confirmed(reference: String)
        case rejected(reason: String)
        /// The operator voided it before it left the terminal.
        case voided(VoidReason)

        /// Where a row in `state` stands for the customer: the bank's answer,
        /// voided, or Queued while it has none (queued, sending, or under review).
        public init(_ state: OutboxState) {
            switch state {
            case .confirmed(let reference): self = .confirmed(reference: reference)
            case .rejected(let reason, _): self = .rejected(reason: reason)
            case .voided(let reason): self = .voided(reason)
            default: self = .queued
            }
        }

        /// "Queued", "Confirmed" or "Rejected".
        public var title: String {
            switch self {
            case .queued: tr("Queued")
            case .confirmed: tr("Confirmed")
            case .rejected: tr("Rejected")
            case .voided: tr("Voided")
            }
        }

        /// What it means for the customer's money, as the screen says it.
        public var detail: String {
            switch self {
            case .queued: tr("Saved on this terminal. It will be sent to the bank; this receipt updates when the bank answers.")
            case .confirmed(let reference): tr("Posted by the bank. Reference {reference}.", ["reference": Localization.leftToRight(reference)])
            case .rejected(let reason): tr("The bank refused it: {reason}. The customer's money did not move.", ["reason": ReasonText.text(reason)])
            case .voided(let reason):
                tr("Voided on this terminal ({reason}). It is never sent to the bank; the customer's money did not move.",
                   ["reason": ReceiptViewModel.reasonTitle(reason)])
            }
        }
    }

    /// How a void reason reads on the button and the receipt.
    public nonisolated static func reasonTitle(_ reason: VoidReason) -> String {
        switch reason {
        case .wrongAmount: tr("Wrong amount")
        case .wrongAccount: tr("Wrong account")
        case .customerCancelled: tr("Customer cancelled")
        case .duplicate: tr("Entered twice")
        }
    }

    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public let entry: OutboxEntry
    public private(set) var status: Status = .queued
    /// The reasons are on screen: Void was tapped and one must be picked.
    public private(set) var choosingVoidReason = false
    /// The reason picked on the void panel; nothing is voided until it is confirmed.
    public private(set) var selectedVoidReason: VoidReason?
    /// The sync engine has started sending the row, or a void was refused
    /// for good (any refusal but still connecting): Void is no longer offered.
    private var voidClosed = false
    /// Why the last void or reversal was refused, or what it came to.
    public private(set) var undoMessage: String?
    /// The message says "still trying to reach the bank": true only until
    /// the bank's answer or the row leaving makes it stale.
    private var undoMessageIsTransient = false
    /// A void was refused because the bank has posted it: Reverse is offered.
    public private(set) var offersReversal = false
    private var isUndoing = false

    init(dependencies: FeatureDependencies, navigator: any Navigator, entry: OutboxEntry) {
        self.dependencies = dependencies
        self.navigator = navigator
        self.entry = entry
        status = Status(entry.state)
    }

    public var statusTitle: String { status.title }

    public var statusDetail: String { status.detail }

    public var lines: [ReviewViewModel.Line] {
        var lines = [ReviewViewModel.Line(label: tr("Type"), value: AccountViewModel.kindTitle(entry.request.kind)),
                     ReviewViewModel.Line(label: tr("Account"), value: entry.request.account.displayed())]
        if let counterparty = entry.request.counterparty { lines.append(.init(label: tr("To"), value: counterparty.displayed())) }
        lines.append(.init(label: tr("Amount"), value: MoneyFormatting.text(entry.request.amount)))
        lines.append(.init(label: tr("Time"), value: dependencies.time.dayAndClock(entry.createdAt, now: dependencies.now(shownBy: navigator))))
        lines.append(.init(label: tr("Receipt"), value: Localization.leftToRight(entry.key.receiptNumber)))
        if case .confirmed(let reference) = status { lines.append(.init(label: tr("Bank reference"), value: Localization.leftToRight(reference))) }
        return lines
    }

    public var doneTitle: String { tr("Done") }

    /// What the last reprint request came to; nil before any.
    public private(set) var printMessage: String?

    /// A printer is configured and the payment was not voided (its receipt would say otherwise).
    public var canReprint: Bool {
        guard dependencies.printQueue != nil else { return false }
        if case .voided = status { return false }
        return true
    }

    public var reprintTitle: String { tr("Reprint") }
    public var reprintAccessibilityLabel: String {
        tr("Reprint receipt {receipt} as a copy", ["receipt": Localization.leftToRight(entry.key.receiptNumber)])
    }

    /// Queues one more receipt, marked COPY; the printer takes it when it can.
    public func reprint() async {
        guard let queue = dependencies.printQueue, let op = navigator?.signedInOperator else { return }
        do throws(TellerError) {
            _ = try await queue.reprintReceipt(entry.key, by: op.id)
            await navigator?.printQueueChanged()
            printMessage = tr("A copy is on its way to the printer.")
        } catch {
            printMessage = tr("Could not queue the copy: {problem}", ["problem": ErrorText.text(error)])
        }
    }

    // MARK: Void and reversal

    public var voidTitle: String { tr("Void") }
    public var reverseTitle: String { tr("Reverse") }
    public var cancelTitle: String { tr("Keep it") }
    public var voidPrompt: String { tr("Why is it voided?") }
    /// The second, deliberate tap: enabled once a reason is picked.
    public var confirmVoidTitle: String { tr("Void payment") }

    /// Queued on this terminal, not yet sending and not refused: Void is
    /// offered (the store still decides whether it has left).
    public var canVoid: Bool {
        if case .queued = status, !offersReversal, !voidClosed { return true }
        return false
    }

    /// Posted by the bank and not itself a reversal: Reverse is offered.
    public var canReverse: Bool {
        guard entry.reverses == nil else { return false }
        if case .confirmed = status { return true }
        return offersReversal
    }

    /// The first tap: the void panel, with every reason and Keep it, and nothing voided yet.
    public func startVoid() {
        guard canVoid else { return }
        choosingVoidReason = true
        selectedVoidReason = nil
        undoMessage = nil
    }

    /// Picks (or changes) the reason; the void waits for ``confirmVoid()``.
    public func selectVoidReason(_ reason: VoidReason) {
        guard choosingVoidReason else { return }
        selectedVoidReason = reason
    }

    public func cancelVoid() {
        closeVoidPanel()
    }

    private func closeVoidPanel() {
        choosingVoidReason = false
        selectedVoidReason = nil
    }

    /// The second tap: voids for the reason picked.
    public func confirmVoid() async {
        guard let reason = selectedVoidReason else { return }
        await void(reason)
    }

    /// Voids the payment for `reason`, atomically against the sync engine:
    /// one that has started sending is refused with why, and a posted one offers a reversal.
    func void(_ reason: VoidReason) async {
        guard choosingVoidReason, canVoid, !isUndoing, let op = navigator?.signedInOperator else { return }
        isUndoing = true
        defer { isUndoing = false }
        closeVoidPanel()
        do throws(TellerError) {
            let voided = try await dependencies.outbox.void(entry.key, reason: reason, by: op.id)
            status = Status(voided.state)
            undoMessage = nil
            navigator?.outboxChanged()
        } catch {
            if case .voidRefused(.alreadySent(let reference)) = error {
                status = .confirmed(reference: reference)
                offersReversal = true
            }
            // Asking again can change only one refusal: the terminal was
            // still trying to reach the bank, and nothing had left.
            undoMessageIsTransient = error == .voidRefused(.stillConnecting)
            if !undoMessageIsTransient { voidClosed = true }
            undoMessage = ErrorText.text(error)
        }
    }

    /// Queues the payment that undoes this posted one; its receipt replaces this one.
    public func reverse() async {
        guard canReverse, !isUndoing, let op = navigator?.signedInOperator else { return }
        isUndoing = true
        defer { isUndoing = false }
        do throws(TellerError) {
            let reversal = try await dependencies.outbox.reverse(entry.key, by: op.id)
            navigator?.outboxChanged()
            navigator?.replaceTop(with: .receipt(reversal))
        } catch {
            undoMessage = ErrorText.text(error)
        }
    }

    /// The bank's answer replaces Queued; the row leaving the terminal
    /// takes the void offer (and an open void panel) away at once.
    public func handle(_ event: SyncEvent) async {
        switch event {
        case .sending(let key) where key == entry.key: voidClosed = true
        case .confirmed(let key, let reference) where key == entry.key: status = .confirmed(reference: reference)
        case .rejected(let key, let reason) where key == entry.key: status = .rejected(reason: reason)
        case .needsReview(let key, _) where key == entry.key: voidClosed = true
        default: return
        }
        if undoMessageIsTransient { undoMessage = nil; undoMessageIsTransient = false }
        if !canVoid { closeVoidPanel() }
    }

    public func done() { navigator?.popToHome() }
}

extension ReceiptViewModel: ScreenViewModel {
    public var screenName: String { "receipt" }
    public var screenKind: ScreenKind { .receipt(self) }
}
