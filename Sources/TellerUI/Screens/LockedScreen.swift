import TellerFeatures
import Widgets

/// The lock screen: the operator's PIN on a keypad whose enter key unlocks, and Sign out.
@MainActor
public struct LockedScreen: TerminalScreen {
    public enum Control: RawRepresentable {
        case unlock, signOut, pinField
        /// A key of the PIN's keypad (`locked.pin.5`).
        case key(KeypadKey)

        public static let keypad = "locked.pin"

        public var rawValue: String {
            switch self {
            case .unlock: "locked.unlock"
            case .signOut: "locked.sign-out"
            case .pinField: "locked.pin-field"
            case .key(let key): "\(Self.keypad).\(key.identifierSuffix)"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.unlock, .signOut, .pinField].first(where: { $0.rawValue == rawValue }) {
                self = fixed
            } else if let key = KeypadKey(tapIdentifier: rawValue, keypadIdentifier: Self.keypad) {
                self = .key(key)
            } else {
                return nil
            }
        }
    }

    public let model: LockedViewModel

    public init(model: LockedViewModel) { self.model = model }

    public var focusedField: String? { Control.pinField.rawValue }

    public var title: String { model.title }

    public func body() -> any Widget {
        var form: [any Widget] = [
            Label(model.title, style: .title),
            Label(model.subtitle, style: .body, color: .secondaryText, maxLines: 4, canTruncate: false, identifier: "locked.operator"),
            ScreenParts.captioned(model.pinLabel,
                                  TextField(identifier: Control.pinField.rawValue, label: model.pinLabel, value: model.fieldText, isSecure: true)),
        ]
        if let message = model.message {
            form.append(ScreenParts.message(message, isError: model.state != .verifying, identifier: "locked.message"))
        }
        form.append(Spacer())
        // Unlock is the keypad's enter key, under the thumb; Sign out stays apart, on the other side.
        // At the largest text the operator's name and the message scroll rather than lose letters.
        let left = VStack(spacing: Theme.Spacing.compact, [
            Flexible(1, ScrollArea(identifier: "locked.form", label: model.title, VStack(spacing: Theme.Spacing.compact, form))),
            button(model.signOutTitle, .signOut, style: .destructive),
        ])
        return HStack(spacing: Theme.Spacing.xxLarge, padding: .symmetric(horizontal: Theme.Spacing.xLarge, vertical: Theme.Spacing.medium), [
            Flexible(1, left),
            Flexible(1, Keypad(identifier: Control.keypad, model.keypad, isEnabled: model.state != .verifying,
                                      primaryAction: Control.unlock.rawValue)),
        ])
    }
}

extension LockedScreen {
    private func digits(_ actions: ScreenActions) -> DigitEntry {
        DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: { actions.perform { await model.unlock() } })
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .key(let key): digits(actions).tap(key)
        case .unlock: digits(actions).enter()
        case .signOut: model.signOut()
        case .pinField: break
        }
    }

    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        digits(actions).key(key)
    }
}
