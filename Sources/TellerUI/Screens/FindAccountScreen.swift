import TellerFeatures
import Widgets

/// IBAN entry on the on-screen keyboard (or from a scanner), validated on
/// every key with the reason shown under the field.
@MainActor
public struct FindAccountScreen {
    public static let keyboard = "find-account.keys"
    public static let field = "find-account.iban"
    public static let open = "find-account.open"
    public static let back = "find-account.back"

    public let model: FindAccountViewModel

    public init(model: FindAccountViewModel) { self.model = model }

    public var focusedField: String { Self.field }

    public func body() -> any Widget {
        VStack(spacing: 6, padding: .symmetric(horizontal: 12, vertical: 4), [
            ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Self.back), title: model.title,
                               action: Button(model.openTitle, identifier: Self.open, isEnabled: model.isValid)),
            TextField(identifier: Self.field, label: model.prompt, value: model.fieldText, placeholder: model.prompt),
            Label(model.validationText, style: .body, color: model.isValid ? .success : .secondaryText,
                  identifier: "find-account.validation"),
            Keypad(identifier: Self.keyboard, layout: .alphanumeric, labels: KeypadLabels(model.keyboard)),
        ])
    }
}
