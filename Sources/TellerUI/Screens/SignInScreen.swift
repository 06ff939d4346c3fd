import TellerFeatures
import Widgets

/// Operator id, then PIN, on a numeric keypad; the lockout message and the
/// offline note under the fields. A supervisor's approval is the same
/// screen with `approval.` identifiers in place of `sign-in.` (docs/qa.md).
@MainActor
public struct SignInScreen: TerminalScreen {
    public static let keypad = "sign-in.pin"
    public static let operatorField = "sign-in.operator"
    public static let pinField = "sign-in.pin-field"
    public static let back = "sign-in.back"

    public let model: SignInViewModel

    public init(model: SignInViewModel) { self.model = model }

    /// `sign-in.<part>`, or `approval.<part>` while a supervisor approves.
    private func id(_ signInIdentifier: String) -> String {
        model.approving == nil ? signInIdentifier : "approval" + signInIdentifier.dropFirst("sign-in".count)
    }

    /// The field the keypad and a hardware keyboard type into.
    public var focusedField: String? { id(model.step == .operatorID ? Self.operatorField : Self.pinField) }

    public var title: String { model.title }

    public func body() -> any Widget {
        var form: [any Widget] = [
            ScreenParts.topRow(back: model.canGoBack ? ScreenParts.backButton(model.backTitle, identifier: id(Self.back)) : nil,
                               title: model.title),
            Label(model.instructions, style: .body, color: .secondaryText, maxLines: model.approving == nil ? 2 : 12, canTruncate: false),
            ScreenParts.captioned(model.operatorLabel,
                                  TextField(identifier: id(Self.operatorField), label: model.operatorLabel, value: model.operatorFieldText)),
            ScreenParts.captioned(model.pinLabel,
                                  TextField(identifier: id(Self.pinField), label: model.pinLabel, value: model.pinFieldText, isSecure: true,
                                            isEnabled: model.step == .pin)),
        ]
        if let message = model.message {
            form.append(ScreenParts.message(message, isError: model.isError, identifier: id("sign-in.message")))
        }
        if let note = model.offlineNote {
            form.append(Label(note, style: .caption, color: .secondaryText, maxLines: 3, identifier: id("sign-in.offline-note")))
        }
        form.append(Spacer())
        return HStack(spacing: 24, padding: .symmetric(horizontal: 20, vertical: 12), [
            // A longer language at large text scrolls the form rather than squeeze its fields.
            Flexible(1, ScrollArea(identifier: id("sign-in.form"), label: model.title, VStack(spacing: 10, form))),
            Flexible(1, Keypad(identifier: id(Self.keypad), model.keypad, isEnabled: model.state != .verifying)),
        ])
    }
}

extension SignInScreen {
    private func digits(_ actions: ScreenActions) -> DigitEntry {
        DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: { actions.perform { await model.enter() } })
    }

    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        if digits(actions).tap(identifier, keypad: id(Self.keypad)) { return true }
        switch identifier {
        case id(Self.back): model.back()
        // Tapping the operator field while typing the PIN goes back to the id.
        case id(Self.operatorField): if model.step == .pin { model.back() }
        case id(Self.pinField): break
        default: return false
        }
        return true
    }

    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        digits(actions).key(key)
    }
}
