import TellerFeatures
import Widgets

/// The lock screen: the operator's PIN on a keypad whose enter key unlocks, and Sign out.
@MainActor
public struct LockedScreen: TerminalScreen {
    public static let keypad = "locked.pin"
    public static let pinField = "locked.pin-field"
    public static let unlock = "locked.unlock"
    public static let signOut = "locked.sign-out"

    public let model: LockedViewModel

    public init(model: LockedViewModel) { self.model = model }

    public var focusedField: String? { Self.pinField }

    public var title: String { model.title }

    public func body() -> any Widget {
        var form: [any Widget] = [
            Label(model.title, style: .title),
            Label(model.subtitle, style: .body, color: .secondaryText, maxLines: 4, canTruncate: false, identifier: "locked.operator"),
            ScreenParts.captioned(model.pinLabel,
                                  TextField(identifier: Self.pinField, label: model.pinLabel, value: model.fieldText, isSecure: true)),
        ]
        if let message = model.message {
            form.append(ScreenParts.message(message, isError: model.state != .verifying, identifier: "locked.message"))
        }
        form.append(Spacer())
        // Unlock is the keypad's enter key, under the thumb; Sign out stays apart, on the other side.
        // At the largest text the operator's name and the message scroll rather than lose letters.
        let left = VStack(spacing: 10, [
            Flexible(1, ScrollArea(identifier: "locked.form", label: model.title, VStack(spacing: 10, form))),
            Button(model.signOutTitle, identifier: Self.signOut, style: .destructive),
        ])
        return HStack(spacing: 24, padding: .symmetric(horizontal: 20, vertical: 12), [
            Flexible(1, left),
            Flexible(1, Keypad(identifier: Self.keypad, model.keypad, isEnabled: model.state != .verifying,
                                      primaryAction: Self.unlock)),
        ])
    }
}

extension LockedScreen {
    private func digits(_ actions: ScreenActions) -> DigitEntry {
        DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: { actions.perform { await model.unlock() } })
    }

    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        let digits = digits(actions)
        if digits.tap(identifier, keypad: Self.keypad) { return true }
        switch identifier {
        case Self.unlock: digits.enter()
        case Self.signOut: model.signOut()
        case Self.pinField: break
        default: return false
        }
        return true
    }

    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        digits(actions).key(key)
    }
}
