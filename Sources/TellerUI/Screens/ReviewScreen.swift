import TellerFeatures
import Widgets

/// The last look before the row is written, with one big Confirm.
@MainActor
public struct ReviewScreen: TerminalScreen {
    public enum Control: String {
        case confirm = "review.confirm"
        case back = "review.back"
    }

    public let model: ReviewViewModel

    public init(model: ReviewViewModel) { self.model = model }

    /// The lines on the left, Confirm under the right thumb: at the largest
    /// text size a single column would push Confirm off the panel.
    public var title: String { model.title }

    public func body() -> any Widget {
        var details: [any Widget] = [
            ScreenParts.card(model.lines.map { ($0.label, $0.value) }, identifier: "review.lines"),
            Label(model.note, style: .body, color: .secondaryText, maxLines: 3, identifier: "review.note"),
        ]
        if let refusal = model.refusal {
            details.append(ScreenParts.message(refusal, isError: true, identifier: "review.refusal"))
        }
        details.append(Spacer())
        // At the largest text the details scroll rather than cut the IBAN or the amount.
        let scrolling = ScrollArea(identifier: "review.details", label: model.title, VStack(spacing: Theme.Spacing.compact, details))
        let confirm = KeepsWordsWhole(button(model.confirmTitle, .confirm))
        return VStack(spacing: Theme.Spacing.compact, padding: .symmetric(horizontal: Theme.Spacing.large, vertical: Theme.Spacing.medium), [
            ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue), title: model.title),
            Flexible(1, FirstThatFits([
                HStack(spacing: Theme.Spacing.large, [
                    Flexible(3, scrolling),
                    VStack(spacing: 0, [Spacer(), Frame(minWidth: Theme.Size.heroButtonWidth, height: Theme.Size.heroButtonHeight, confirm)]),
                ]),
                // Where a long language at large text leaves Confirm no room beside the details, it takes the row under them, whole.
                VStack(spacing: Theme.Spacing.compact, [Flexible(1, scrolling), Frame(height: Theme.Size.buttonRowHeight, confirm)]),
            ])),
        ])
    }
}

extension ReviewScreen {
    /// Confirm once: not again while the row is being written.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .confirm: !model.isSubmitting
        case .back: true
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .confirm: actions.perform { await model.confirm() }
        case .back: model.back()
        }
    }
}
