import TellerFeatures
import Widgets

/// Amount on a cash-register keypad, the recipient's IBAN for transfers,
/// the limits still open and the refusal that names a limit.
///
/// While the recipient field has focus the keypad becomes a full-width
/// keyboard and the form folds to the two fields and one message line.
@MainActor
public struct AmountEntryScreen: TerminalScreen {
    public enum Control: RawRepresentable {
        case review, back, amountField, recipientField
        /// Shown after Review refused a limit a supervisor may lift.
        case supervisor
        /// A key of the keypad, or of the keyboard while the recipient has focus (`amount.keys.5`).
        case key(KeypadKey)

        /// The keypad (and keyboard) itself.
        public static let keys = "amount.keys"

        public var rawValue: String {
            switch self {
            case .review: "amount.review"
            case .back: "amount.back"
            case .amountField: "amount.amount"
            case .recipientField: "amount.recipient"
            case .supervisor: "amount.supervisor"
            case .key(let key): "\(Self.keys).\(key.identifierSuffix)"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.review, .back, .amountField, .recipientField, .supervisor].first(where: { $0.rawValue == rawValue }) {
                self = fixed
            } else if let key = KeypadKey(tapIdentifier: rawValue, keypadIdentifier: Self.keys) {
                self = .key(key)
            } else {
                return nil
            }
        }
    }

    public let model: AmountEntryViewModel

    public init(model: AmountEntryViewModel) { self.model = model }

    public var focusedField: String? { (model.focus == .recipient ? Control.recipientField : .amountField).rawValue }

    public var title: String { model.title }

    public func body() -> any Widget {
        model.needsRecipient && model.focus == .recipient ? recipientLayout() : amountLayout()
    }

    private var topRow: any Widget {
        ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue), title: model.title,
                           action: model.approvable == nil ? nil : button(model.supervisorTitle, .supervisor, style: .secondary))
    }

    private var amountField: any Widget {
        TextField(identifier: Control.amountField.rawValue, label: model.amountLabel, value: model.amountText)
    }

    private var recipientField: any Widget {
        TextField(identifier: Control.recipientField.rawValue, label: model.recipientLabel, value: model.recipientFieldText,
                  placeholder: model.recipientLabel)
    }

    private func amountLayout() -> any Widget {
        var form: [any Widget] = [
            Label(model.accountText, style: .amount, color: .secondaryText, maxLines: 3, canTruncate: false, identifier: "amount.account"),
            ScreenParts.captioned(model.amountLabel, amountField),
        ]
        if model.needsRecipient {
            form.append(ScreenParts.captioned(model.recipientLabel, recipientField))
            if let validation = model.recipientValidationText {
                form.append(Label(validation, style: .caption, color: .secondaryText, identifier: "amount.recipient-validation"))
            }
        }
        if let refusal = model.refusal {
            form.append(ScreenParts.message(refusal, isError: true, identifier: "amount.refusal"))
        }
        let limits = model.limitLines
        if !limits.isEmpty {
            form.append(VStack(spacing: Theme.Spacing.hairline, identifier: "amount.limits",
                               [Label(model.limitsTitle, style: .caption, color: .secondaryText)]
                                   + limits.map { Label($0, style: .caption, color: .primaryText, maxLines: 6, canTruncate: false) }))
        }
        form.append(Spacer())
        // The form gets a little more than half: limit lines are long, keys stay over 100 dp wide.
        return VStack(spacing: Theme.Spacing.small, padding: .symmetric(horizontal: Theme.Spacing.medium, vertical: Theme.Spacing.small), [
            topRow,
            Flexible(1, HStack(spacing: Theme.Spacing.large, [
                // At the largest text the form scrolls rather than cut the IBAN, a limit or the refusal.
                Flexible(6, ScrollArea(identifier: "amount.form", label: model.title, VStack(spacing: Theme.Spacing.small, form))),
                Flexible(5, Keypad(identifier: Control.keys, model.amountKeypad, primaryAction: Control.review.rawValue)),
            ])),
        ])
    }

    private func recipientLayout() -> any Widget {
        let line = model.refusal ?? model.recipientValidationText ?? ""
        let message = Label(line, style: .body, color: model.refusal == nil ? .secondaryText : .danger, maxLines: 2,
                            identifier: model.refusal == nil ? "amount.recipient-validation" : "amount.refusal")
        let keyboard = Keypad(identifier: Control.keys, layout: .alphanumeric, model.recipientKeyboard, primaryAction: Control.review.rawValue)
        // Side by side while both values fit whole; otherwise the amount above the recipient.
        let fields = FirstThatFits([
            HStack(spacing: Theme.Spacing.medium, [
                Flexible(1, ScreenParts.captioned(model.amountLabel, amountField)),
                Flexible(2, ScreenParts.captioned(model.recipientLabel, recipientField)),
            ]),
            VStack(spacing: Theme.Spacing.small, [
                ScreenParts.captioned(model.amountLabel, amountField),
                ScreenParts.captioned(model.recipientLabel, recipientField),
            ]),
        ])
        // At the largest text the title and the captions give their rows to the keys, which keep their touch size.
        let compact = HStack(spacing: Theme.Spacing.medium, alignment: .center, [
            ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue), Flexible(1, amountField), Flexible(2, recipientField),
        ])
        let padding = Insets.symmetric(horizontal: Theme.Spacing.medium, vertical: Theme.Spacing.small)
        return FirstThatFits(.vertical, [
            VStack(spacing: Theme.Spacing.small, padding: padding, [topRow, fields, message, keyboard]),
            VStack(spacing: Theme.Spacing.small, padding: padding, [compact, message, keyboard]),
        ])
    }
}

extension AmountEntryScreen {
    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .key(.digit(let n)): model.press(digit: Character(String(n)))
        case .key(.doubleZero): model.pressDoubleZero()
        case .key(.letter(let c)): model.type(c)
        case .key(.backspace): model.backspace()
        case .key(.space), .key(.enter): break
        case .review: actions.perform { await model.reviewTransaction() }
        case .supervisor: model.callSupervisor()
        case .back: model.back()
        case .amountField: model.focus(.amount)
        case .recipientField: model.focus(.recipient)
        }
    }

    /// Keys go to the view model, which also spots a scanned IBAN.
    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        switch key {
        case .character(let character): model.keyboardTyped(character)
        case .backspace: model.backspace()
        case .tab: model.keyboardTab()
        case .enter: if model.keyboardEnter() == .review { actions.perform { await model.reviewTransaction() } }
        }
    }
}
