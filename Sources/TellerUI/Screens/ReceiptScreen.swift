import TellerCore
import TellerFeatures
import Widgets

/// The receipt: Queued, then Confirmed with the bank's reference or
/// Rejected with the reason, as the sync engine reports.
@MainActor
public struct ReceiptScreen: TerminalScreen {
    public enum Control: RawRepresentable {
        case done
        /// Prints the receipt again, marked COPY (shown only with a printer).
        case reprint
        /// Void: offered while the payment is queued; shows the reasons.
        case void
        /// `receipt.void.<reason>`: wrong_amount, wrong_account, customer_cancelled, duplicate.
        case voidReason(VoidReason)
        /// Keeps the payment: no void after all.
        case keep
        /// Reverse: offered once the bank posted it.
        case reverse

        public var rawValue: String {
            switch self {
            case .done: "receipt.done"
            case .reprint: "receipt.reprint"
            case .void: "receipt.void"
            case .voidReason(let reason): "receipt.void.\(reason.rawValue)"
            case .keep: "receipt.void.keep"
            case .reverse: "receipt.reverse"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.done, .reprint, .void, .keep, .reverse].first(where: { $0.rawValue == rawValue }) {
                self = fixed
            } else if let reason = rawValue.member(of: Control.void.rawValue).flatMap({ VoidReason(rawValue: String($0)) }) {
                self = .voidReason(reason)
            } else {
                return nil
            }
        }
    }

    public let model: ReceiptViewModel

    public init(model: ReceiptViewModel) { self.model = model }

    public var title: String { model.statusTitle }

    public func body() -> any Widget {
        let color: ThemeColor
        switch model.status {
        case .queued: color = .accent
        case .confirmed: color = .success
        case .rejected: color = .danger
        case .voided: color = .secondaryText
        }
        var content: [any Widget] = [
            Label(model.statusTitle, style: .title, color: color, identifier: "receipt.status"),
            Label(model.statusDetail, style: .body, color: .secondaryText, maxLines: 4, canTruncate: false,
                  identifier: "receipt.detail"),
            ScreenParts.card(model.lines.map { ($0.label, $0.value) }, identifier: "receipt.lines"),
        ]
        if let undo = model.undoMessage {
            content.append(ScreenParts.message(undo, isError: true, identifier: "receipt.undo-message"))
        }
        if model.choosingVoidReason {
            content.append(Label(model.voidPrompt, style: .bodyBold, identifier: "receipt.void-prompt"))
            content.append(VStack(spacing: Theme.Spacing.small, VoidReason.allCases.map { reason in
                Frame(height: LayoutContext.minimumTouchTarget,
                      button(ReceiptViewModel.reasonTitle(reason), .voidReason(reason), style: .destructive)) as any Widget
            } + [Frame(height: LayoutContext.minimumTouchTarget, button(model.cancelTitle, .keep, style: .secondary))]))
        }
        if let printed = model.printMessage {
            content.append(ScreenParts.message(printed, isError: false, identifier: "receipt.print-message"))
        }
        content.append(Spacer())
        // At the largest text the receipt scrolls above Done rather than cut a line of it.
        var actions: [any Widget] = []
        if model.canVoid && !model.choosingVoidReason {
            actions.append(Flexible(1, button(model.voidTitle, .void, style: .secondary)))
        }
        if model.canReverse {
            actions.append(Flexible(1, button(model.reverseTitle, .reverse, style: .secondary)))
        }
        if isEnabled(.reprint) {
            actions.append(Flexible(1, button(model.reprintTitle, .reprint, accessibilityLabel: model.reprintAccessibilityLabel,
                                              style: .secondary)))
        }
        actions.append(Flexible(2, button(model.doneTitle, .done)))
        return VStack(spacing: Theme.Spacing.compact, padding: .symmetric(horizontal: Theme.Spacing.large, vertical: Theme.Spacing.medium), [
            Flexible(1, ScrollArea(identifier: "receipt.body", label: model.statusTitle, VStack(spacing: Theme.Spacing.compact, content))),
            Frame(height: Theme.Size.buttonRowHeight, HStack(spacing: Theme.Spacing.medium, actions)),
        ])
    }
}

extension ReceiptScreen {
    /// Reprint only with a printer.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .reprint: model.canReprint
        case .done, .void, .voidReason, .keep, .reverse: true
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .done: model.done()
        case .reprint: actions.perform { await model.reprint() }
        case .void: model.startVoid()
        case .voidReason(let reason): actions.perform { await model.void(reason) }
        case .keep: model.cancelVoid()
        case .reverse: actions.perform { await model.reverse() }
        }
    }
}
