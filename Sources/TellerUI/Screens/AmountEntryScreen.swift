import TellerFeatures
import Widgets

/// Amount on a cash-register keypad, the recipient's IBAN for transfers,
/// the limits still open and the refusal that names a limit.
///
/// While the recipient field has focus the keypad becomes a full-width
/// keyboard and the form folds to the two fields and one message line.
@MainActor
public struct AmountEntryScreen: TerminalScreen {
    public static let keys = "amount.keys"
    public static let amountField = "amount.amount"
    public static let recipientField = "amount.recipient"
    public static let review = "amount.review"
    public static let back = "amount.back"
    /// Shown after Review refused a limit a supervisor may lift.
    public static let supervisor = "amount.supervisor"

    public let model: AmountEntryViewModel

    public init(model: AmountEntryViewModel) { self.model = model }

    public var focusedField: String? { model.focus == .recipient ? Self.recipientField : Self.amountField }

    public var title: String { model.title }

    public func body() -> any Widget {
        model.needsRecipient && model.focus == .recipient ? recipientLayout() : amountLayout()
    }

    private var topRow: any Widget {
        ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Self.back), title: model.title,
                           action: model.approvable == nil ? nil : Button(model.supervisorTitle, identifier: Self.supervisor, style: .secondary))
    }

    private var amountField: any Widget {
        TextField(identifier: Self.amountField, label: model.amountLabel, value: model.amountText)
    }

    private var recipientField: any Widget {
        TextField(identifier: Self.recipientField, label: model.recipientLabel, value: model.recipientFieldText,
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
            form.append(VStack(spacing: 2, identifier: "amount.limits",
                               [Label(model.limitsTitle, style: .caption, color: .secondaryText)]
                                   + limits.map { Label($0, style: .caption, color: .primaryText, maxLines: 6, canTruncate: false) }))
        }
        form.append(Spacer())
        // The form gets a little more than half: limit lines are long, keys stay over 100 dp wide.
        return VStack(spacing: 8, padding: .symmetric(horizontal: 12, vertical: 8), [
            topRow,
            Flexible(1, HStack(spacing: 16, [
                // At the largest text the form scrolls rather than cut the IBAN, a limit or the refusal.
                Flexible(6, ScrollArea(identifier: "amount.form", label: model.title, VStack(spacing: 8, form))),
                Flexible(5, Keypad(identifier: Self.keys, model.amountKeypad, primaryAction: Self.review)),
            ])),
        ])
    }

    private func recipientLayout() -> any Widget {
        let line = model.refusal ?? model.recipientValidationText ?? ""
        let message = Label(line, style: .body, color: model.refusal == nil ? .secondaryText : .danger, maxLines: 2,
                            identifier: model.refusal == nil ? "amount.recipient-validation" : "amount.refusal")
        let keyboard = Keypad(identifier: Self.keys, layout: .alphanumeric, model.recipientKeyboard, primaryAction: Self.review)
        // Side by side while both values fit whole; otherwise the amount above the recipient.
        let fields = FirstThatFits([
            HStack(spacing: 12, [
                Flexible(1, ScreenParts.captioned(model.amountLabel, amountField)),
                Flexible(2, ScreenParts.captioned(model.recipientLabel, recipientField)),
            ]),
            VStack(spacing: 8, [
                ScreenParts.captioned(model.amountLabel, amountField),
                ScreenParts.captioned(model.recipientLabel, recipientField),
            ]),
        ])
        // At the largest text the title and the captions give their rows to the keys, which keep their touch size.
        let compact = HStack(spacing: 12, alignment: .center, [
            ScreenParts.backButton(model.backTitle, identifier: Self.back), Flexible(1, amountField), Flexible(2, recipientField),
        ])
        let padding = Insets.symmetric(horizontal: 12, vertical: 8)
        return FirstThatFits(.vertical, [
            VStack(spacing: 8, padding: padding, [topRow, fields, message, keyboard]),
            VStack(spacing: 8, padding: padding, [compact, message, keyboard]),
        ])
    }
}

extension AmountEntryScreen {
    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        let review = { actions.perform { await model.reviewTransaction() } }
        if let key = KeypadKey(tapIdentifier: identifier, keypadIdentifier: Self.keys) {
            switch key {
            case .digit(let n): model.press(digit: Character(String(n)))
            case .doubleZero: model.pressDoubleZero()
            case .letter(let c): model.type(c)
            case .backspace: model.backspace()
            case .space, .enter: break
            }
            return true
        }
        switch identifier {
        case Self.review: review()
        case Self.supervisor: model.callSupervisor()
        case Self.back: model.back()
        case Self.amountField: model.focus(.amount)
        case Self.recipientField: model.focus(.recipient)
        default: return false
        }
        return true
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
