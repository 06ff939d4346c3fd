import Observation
import TellerCore

/// Review and confirm: the last look before the row is written.
@MainActor @Observable
public final class ReviewViewModel {
    public struct Line: Hashable, Sendable {
        public let label: String
        public let value: String
    }

    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public let request: TransactionRequest
    /// The supervisor who approved it, as their approval named them.
    public let approver: Operator?
    public private(set) var isSubmitting = false
    public private(set) var refusal: String?

    init(dependencies: FeatureDependencies, navigator: any Navigator, request: TransactionRequest, approver: Operator? = nil) {
        self.dependencies = dependencies
        self.navigator = navigator
        self.request = request
        self.approver = approver
    }

    public var title: String {
        switch request.kind {
        case .deposit: tr("Review deposit")
        case .withdrawal: tr("Review withdrawal")
        case .transfer: tr("Review transfer")
        }
    }

    public var lines: [Line] {
        var lines = [Line(label: tr("Type"), value: AccountViewModel.kindTitle(request.kind)),
                     Line(label: request.kind == .transfer ? tr("From") : tr("Account"), value: request.account.displayed())]
        if let counterparty = request.counterparty { lines.append(Line(label: tr("To"), value: counterparty.displayed())) }
        lines.append(Line(label: tr("Amount"), value: MoneyFormatting.text(request.amount)))
        if let op = navigator?.signedInOperator { lines.append(Line(label: tr("Operator"), value: StaffText.text(op))) }
        if let supervisor = request.approvedBy { lines.append(Line(label: tr("Approved by"), value: StaffText.text(supervisor, known: approver))) }
        return lines
    }

    public var note: String {
        navigator?.isOnline == true
            ? tr("It is saved on this terminal, then sent to the bank.")
            : tr("Offline: it is saved on this terminal and sent when the bank can be reached.")
    }

    public var confirmTitle: String { tr("Confirm") }
    public var backTitle: String { tr("Change") }

    /// Writes the row; the receipt replaces this screen.
    public func confirm() async {
        guard !isSubmitting else { return }
        isSubmitting = true
        refusal = nil
        do throws(TellerError) {
            let entry = try await dependencies.outbox.enqueue(request)
            isSubmitting = false
            navigator?.outboxChanged()
            navigator?.replaceTop(with: .receipt(entry))
        } catch {
            isSubmitting = false
            refusal = ErrorText.text(error)
        }
    }

    public func back() { navigator?.pop() }
}

extension ReviewViewModel: ScreenViewModel {
    public var screenName: String { "review" }
    public var screenKind: ScreenKind { .review(self) }
}
