import TellerCore
import TellerFeatures
import Widgets

/// The receipt: Queued, then Confirmed with the bank's reference or
/// Rejected with the reason, as the sync engine reports.
@MainActor
public struct ReceiptScreen: TerminalScreen {
    public static let done = "receipt.done"
    /// Prints the receipt again, marked COPY (shown only with a printer).
    public static let reprint = "receipt.reprint"
    /// Void: offered while the payment is queued; shows the reasons.
    public static let void = "receipt.void"
    /// `receipt.void.<reason>`: wrong_amount, wrong_account, customer_cancelled, duplicate.
    public nonisolated static func voidReason(_ reason: VoidReason) -> String { "receipt.void.\(reason.rawValue)" }
    public static let keep = "receipt.void.keep"
    /// Reverse: offered once the bank posted it.
    public static let reverse = "receipt.reverse"

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
            content.append(VStack(spacing: 8, VoidReason.allCases.map { reason in
                Frame(height: LayoutContext.minimumTouchTarget,
                      Button(ReceiptViewModel.reasonTitle(reason), identifier: Self.voidReason(reason), style: .destructive)) as any Widget
            } + [Frame(height: LayoutContext.minimumTouchTarget, Button(model.cancelTitle, identifier: Self.keep, style: .secondary))]))
        }
        if let printed = model.printMessage {
            content.append(ScreenParts.message(printed, isError: false, identifier: "receipt.print-message"))
        }
        content.append(Spacer())
        // At the largest text the receipt scrolls above Done rather than cut a line of it.
        var actions: [any Widget] = []
        if model.canVoid && !model.choosingVoidReason {
            actions.append(Flexible(1, Button(model.voidTitle, identifier: Self.void, style: .secondary)))
        }
        if model.canReverse {
            actions.append(Flexible(1, Button(model.reverseTitle, identifier: Self.reverse, style: .secondary)))
        }
        if model.canReprint {
            actions.append(Flexible(1, Button(model.reprintTitle, identifier: Self.reprint, accessibilityLabel: model.reprintAccessibilityLabel,
                                              style: .secondary)))
        }
        actions.append(Flexible(2, Button(model.doneTitle, identifier: Self.done)))
        return VStack(spacing: 10, padding: .symmetric(horizontal: 16, vertical: 12), [
            Flexible(1, ScrollArea(identifier: "receipt.body", label: model.statusTitle, VStack(spacing: 10, content))),
            Frame(height: 64, HStack(spacing: 12, actions)),
        ])
    }
}

extension ReceiptScreen {
    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        switch identifier {
        case Self.done: model.done()
        case Self.reprint where model.canReprint: actions.perform { await model.reprint() }
        case Self.void: model.startVoid()
        case Self.keep: model.cancelVoid()
        case Self.reverse: actions.perform { await model.reverse() }
        case let id where id.hasPrefix(Self.void + "."):
            guard let reason = VoidReason(rawValue: String(id.dropFirst(Self.void.count + 1))) else { return false }
            actions.perform { await model.void(reason) }
        default: return false
        }
        return true
    }
}
