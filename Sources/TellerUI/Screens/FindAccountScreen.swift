import TellerFeatures
import Widgets

/// IBAN entry on the on-screen keyboard (or from a scanner), validated on
/// every key with the reason shown under the field.
@MainActor
public struct FindAccountScreen: TerminalScreen {
    public enum Control: RawRepresentable {
        case open, back, field
        /// A key of the keyboard (`find-account.keys.D`).
        case key(KeypadKey)

        public static let keyboard = "find-account.keys"

        public var rawValue: String {
            switch self {
            case .open: "find-account.open"
            case .back: "find-account.back"
            case .field: "find-account.iban"
            case .key(let key): "\(Self.keyboard).\(key.identifierSuffix)"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.open, .back, .field].first(where: { $0.rawValue == rawValue }) {
                self = fixed
            } else if let key = KeypadKey(tapIdentifier: rawValue, keypadIdentifier: Self.keyboard) {
                self = .key(key)
            } else {
                return nil
            }
        }
    }

    public let model: FindAccountViewModel

    public init(model: FindAccountViewModel) { self.model = model }

    public var focusedField: String? { Control.field.rawValue }

    public var title: String { model.title }

    public func body() -> any Widget {
        let back = ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue)
        let field = TextField(identifier: Control.field.rawValue, label: model.prompt, value: model.fieldText, placeholder: model.prompt)
        let rest: [any Widget] = [
            Label(model.validationText, style: .body, color: model.isValid ? .success : .secondaryText, maxLines: 2,
                  identifier: "find-account.validation"),
            // Open is the keyboard's enter key, under the thumb; it greys out until the IBAN is valid.
            Keypad(identifier: Control.keyboard, layout: .alphanumeric, model.keyboard,
                   primaryAction: Control.open.rawValue, isActionEnabled: isEnabled(.open)),
        ]
        // At the largest text the title gives its row to the field, so the keys keep their touch size.
        return FirstThatFits(.vertical, [
            VStack(spacing: Theme.Spacing.xSmall, padding: .symmetric(horizontal: Theme.Spacing.medium, vertical: Theme.Spacing.xxSmall),
                   [ScreenParts.topRow(back: back, title: model.title), field] + rest),
            VStack(spacing: Theme.Spacing.xSmall, padding: .symmetric(horizontal: Theme.Spacing.medium, vertical: Theme.Spacing.xxSmall),
                   [HStack(spacing: Theme.Spacing.medium, alignment: .center, [back, Flexible(1, field)])] + rest),
        ])
    }
}

extension FindAccountScreen {
    /// Open waits for a valid IBAN.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .open: model.isValid
        case .back, .field, .key: true
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .key(.backspace): model.backspace()
        case .key(.space), .key(.enter): break
        // A loop, not `forEach(model.type)`: Swift 6.0 (the arm64 build) refuses an isolated method reference there.
        case .key(let key): for character in key.text ?? "" { model.type(character) }
        case .open: model.open()
        case .back: model.back()
        case .field: break
        }
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
