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
        /// Voids for the reason picked: the second tap, enabled once one is.
        case confirmVoid
        /// Reverse: offered once the bank posted it.
        case reverse

        public var rawValue: String {
            switch self {
            case .done: "receipt.done"
            case .reprint: "receipt.reprint"
            case .void: "receipt.void"
            case .voidReason(let reason): "receipt.void.\(reason.rawValue)"
            case .keep: "receipt.void.keep"
            case .confirmVoid: "receipt.void.confirm"
            case .reverse: "receipt.reverse"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.done, .reprint, .void, .keep, .confirmVoid, .reverse].first(where: { $0.rawValue == rawValue }) {
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
        if model.choosingVoidReason { return voidPanel() }
        let color: ThemeColor
        switch model.status {
        case .queued: color = .accent
        case .confirmed: color = .success
        case .rejected: color = .danger
        case .voided: color = .secondaryText
        }
        var content: [any Widget] = [Label(model.statusTitle, style: .title, color: color, identifier: "receipt.status")]
        // A refused void or reversal is the news: under the status, where
        // it shows without scrolling at the largest text too.
        if let undo = model.undoMessage {
            content.append(ScreenParts.message(undo, isError: true, identifier: "receipt.undo-message"))
        }
        content += [
            Label(model.statusDetail, style: .body, color: .secondaryText, maxLines: 4, canTruncate: false,
                  identifier: "receipt.detail"),
            ScreenParts.card(model.lines.map { ($0.label, $0.value) }, identifier: "receipt.lines"),
        ]
        if let printed = model.printMessage {
            content.append(ScreenParts.message(printed, isError: false, identifier: "receipt.print-message"))
        }
        content.append(Spacer())
        // At the largest text the receipt scrolls above Done rather than cut a line of it.
        var actions: [any Widget] = []
        if model.canVoid {
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
    /// The void, in place of the receipt: every reason as a choice, and at
    /// the bottom Keep it beside Void payment, which stays disabled until a
    /// reason is picked. Nothing voids on one tap. Everything fits at
    /// 800x480 and text scale 2.0 (docs/screens/receipt-void-*.png).
    private func voidPanel() -> any Widget {
        let reasons = VoidReason.allCases.map { reason -> any Widget in
            let picked = model.selectedVoidReason == reason
            let title = ReceiptViewModel.reasonTitle(reason)
            return Frame(height: LayoutContext.minimumTouchTarget,
                         button(title, .voidReason(reason), accessibilityLabel: picked ? tr("{reason}, chosen", ["reason": title]) : title,
                                style: picked ? .primary : .secondary))
        }
        // No more than the prompt above the reasons: at text scale 2.0 a line more would push the last reason out of sight.
        return VStack(spacing: Theme.Spacing.compact, padding: .symmetric(horizontal: Theme.Spacing.large, vertical: Theme.Spacing.medium), [
            Label(model.voidPrompt, style: .bodyBold, identifier: "receipt.void-prompt"),
            Flexible(1, ScrollArea(identifier: "receipt.void-reasons", label: model.voidPrompt, VStack(spacing: Theme.Spacing.small, reasons))),
            Frame(height: Theme.Size.buttonRowHeight, HStack(spacing: Theme.Spacing.medium, [
                Flexible(1, button(model.cancelTitle, .keep, style: .secondary)),
                Flexible(1, button(model.confirmVoidTitle, .confirmVoid, style: .destructive)),
            ])),
        ])
    }

    /// Reprint only with a printer; Void payment once a reason is picked.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .reprint: model.canReprint
        case .confirmVoid: model.selectedVoidReason != nil
        case .done, .void, .voidReason, .keep, .reverse: true
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .done: model.done()
        case .reprint: actions.perform { await model.reprint() }
        case .void: model.startVoid()
        case .voidReason(let reason): model.selectVoidReason(reason)
        case .keep: model.cancelVoid()
        case .confirmVoid: actions.perform { await model.confirmVoid() }
        case .reverse: actions.perform { await model.reverse() }
        }
    }
}
