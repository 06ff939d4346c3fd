import TellerFeatures
import Widgets

/// The receipt: Queued, then Confirmed with the bank's reference or
/// Rejected with the reason, as the sync engine reports.
@MainActor
public struct ReceiptScreen: TerminalScreen {
    public static let done = "receipt.done"
    /// Prints the receipt again, marked COPY (shown only with a printer).
    public static let reprint = "receipt.reprint"

    public let model: ReceiptViewModel

    public init(model: ReceiptViewModel) { self.model = model }

    public var title: String { model.statusTitle }

    public func body() -> any Widget {
        let color: ThemeColor
        switch model.status {
        case .queued: color = .accent
        case .confirmed: color = .success
        case .rejected: color = .danger
        }
        var content: [any Widget] = [
            Label(model.statusTitle, style: .title, color: color, identifier: "receipt.status"),
            Label(model.statusDetail, style: .body, color: .secondaryText, maxLines: 4, canTruncate: false,
                  identifier: "receipt.detail"),
            ScreenParts.card(model.lines.map { ($0.label, $0.value) }, identifier: "receipt.lines"),
        ]
        if let printed = model.printMessage {
            content.append(ScreenParts.message(printed, isError: false, identifier: "receipt.print-message"))
        }
        content.append(Spacer())
        // At the largest text the receipt scrolls above Done rather than cut a line of it.
        return VStack(spacing: 10, padding: .symmetric(horizontal: 16, vertical: 12), [
            Flexible(1, ScrollArea(identifier: "receipt.body", label: model.statusTitle, VStack(spacing: 10, content))),
            model.canReprint
                ? Frame(height: 64, HStack(spacing: 12, [
                    Flexible(1, Button(model.reprintTitle, identifier: Self.reprint, accessibilityLabel: model.reprintAccessibilityLabel,
                                       style: .secondary)),
                    Flexible(2, Button(model.doneTitle, identifier: Self.done)),
                ]))
                : Frame(height: 64, Button(model.doneTitle, identifier: Self.done)),
        ])
    }
}

extension ReceiptScreen {
    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        switch identifier {
        case Self.done: model.done()
        case Self.reprint where model.canReprint: actions.perform { await model.reprint() }
        default: return false
        }
        return true
    }
}

extension ReceiptViewModel: PresentedByTerminalScreen {
    public var terminalScreen: any TerminalScreen { ReceiptScreen(model: self) }
}
