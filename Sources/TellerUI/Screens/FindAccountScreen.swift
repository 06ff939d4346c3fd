import TellerFeatures
import Widgets

/// IBAN entry on the on-screen keyboard (or from a scanner), validated on
/// every key with the reason shown under the field.
@MainActor
public struct FindAccountScreen: TerminalScreen {
    public static let keyboard = "find-account.keys"
    public static let field = "find-account.iban"
    public static let open = "find-account.open"
    public static let back = "find-account.back"

    public let model: FindAccountViewModel

    public init(model: FindAccountViewModel) { self.model = model }

    public var focusedField: String? { Self.field }

    public var title: String { model.title }

    public func body() -> any Widget {
        let back = ScreenParts.backButton(model.backTitle, identifier: Self.back)
        let field = TextField(identifier: Self.field, label: model.prompt, value: model.fieldText, placeholder: model.prompt)
        let rest: [any Widget] = [
            Label(model.validationText, style: .body, color: model.isValid ? .success : .secondaryText, maxLines: 2,
                  identifier: "find-account.validation"),
            // Open is the keyboard's enter key, under the thumb; it greys out until the IBAN is valid.
            Keypad(identifier: Self.keyboard, layout: .alphanumeric, model.keyboard,
                   primaryAction: Self.open, isActionEnabled: model.isValid),
        ]
        // At the largest text the title gives its row to the field, so the keys keep their touch size.
        return FirstThatFits(.vertical, [
            VStack(spacing: 6, padding: .symmetric(horizontal: 12, vertical: 4),
                   [ScreenParts.topRow(back: back, title: model.title), field] + rest),
            VStack(spacing: 6, padding: .symmetric(horizontal: 12, vertical: 4),
                   [HStack(spacing: 12, alignment: .center, [back, Flexible(1, field)])] + rest),
        ])
    }
}

extension FindAccountScreen {
    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        if let key = KeypadKey(tapIdentifier: identifier, keypadIdentifier: Self.keyboard) {
            switch key {
            case .backspace: model.backspace()
            case .space, .enter: break
            default: for character in key.text ?? "" { model.type(character) }
            }
            return true
        }
        switch identifier {
        case Self.open: model.open()
        case Self.back: model.back()
        case Self.field: break
        default: return false
        }
        return true
    }

    /// A scanner types the whole IBAN and then Enter, which opens the account.
    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        switch key {
        case .character(let character): model.type(character)
        case .backspace: model.backspace()
        case .enter: model.open()
        case .tab: break
        }
    }
}
