import TellerFeatures
import Widgets

/// Operator id, then PIN, on a numeric keypad; the lockout message and the
/// offline note under the fields. A supervisor's approval is the same
/// screen with `approval.` identifiers in place of `sign-in.` (docs/qa.md).
@MainActor
public struct SignInScreen: TerminalScreen {
    /// A control of the sign-in screen (`sign-in.back`), or the same control
    /// while a supervisor approves (`approval.back`).
    public enum Control: RawRepresentable {
        case signIn(Part)
        case approval(Part)

        public enum Part {
            case back, operatorField, pinField
            /// A key of the keypad (`sign-in.pin.5`).
            case key(KeypadKey)

            var suffix: String {
                switch self {
                case .back: "back"
                case .operatorField: "operator"
                case .pinField: "pin-field"
                case .key(let key): "pin.\(key.identifierSuffix)"
                }
            }

            init?(suffix: Substring) {
                if let fixed = [Part.back, .operatorField, .pinField].first(where: { $0.suffix == suffix }) {
                    self = fixed
                } else if let key = KeypadKey(tapIdentifier: String(suffix), keypadIdentifier: "pin") {
                    self = .key(key)
                } else {
                    return nil
                }
            }
        }

        /// The keypad while an operator signs in.
        public static let keypad = "sign-in.pin"

        public var rawValue: String {
            switch self {
            case .signIn(let part): "sign-in.\(part.suffix)"
            case .approval(let part): "approval.\(part.suffix)"
            }
        }

        public init?(rawValue: String) {
            if let part = rawValue.member(of: "sign-in").flatMap(Part.init(suffix:)) {
                self = .signIn(part)
            } else if let part = rawValue.member(of: "approval").flatMap(Part.init(suffix:)) {
                self = .approval(part)
            } else {
                return nil
            }
        }
    }

    public let model: SignInViewModel

    public init(model: SignInViewModel) { self.model = model }

    /// `sign-in.<part>`, or `approval.<part>` while a supervisor approves.
    private func id(_ part: String) -> String { (model.approving == nil ? "sign-in." : "approval.") + part }

    /// The control `part` on this screen as it is now: signing in or approving.
    private func control(_ part: Control.Part) -> Control { model.approving == nil ? .signIn(part) : .approval(part) }

    /// The field the keypad and a hardware keyboard type into.
    public var focusedField: String? { control(model.step == .operatorID ? .operatorField : .pinField).rawValue }

    public var title: String { model.title }

    public func body() -> any Widget {
        let instructions = Label(model.instructions, style: .body, color: .secondaryText, maxLines: model.approving == nil ? 2 : 12, canTruncate: false)
        let fields: [any Widget] = [
            ScreenParts.captioned(model.operatorLabel,
                                  TextField(identifier: control(.operatorField).rawValue, label: model.operatorLabel, value: model.operatorFieldText)),
            ScreenParts.captioned(model.pinLabel,
                                  TextField(identifier: control(.pinField).rawValue, label: model.pinLabel, value: model.pinFieldText, isSecure: true,
                                            isEnabled: model.step == .pin)),
        ]
        var form: [any Widget] = [
            ScreenParts.topRow(back: model.canGoBack ? ScreenParts.backButton(model.backTitle, identifier: control(.back).rawValue) : nil,
                               title: model.title),
        ]
        // An approval's instructions run to many lines at large text: the
        // fields the supervisor types into, why a number was refused, and
        // who can approve offline come first, so they never scroll out of
        // sight; the instructions follow. The note is never cut.
        let note = model.offlineNote.map { Label($0, style: .caption, color: .secondaryText, maxLines: 6, canTruncate: false, identifier: id("offline-note")) }
        if model.approving == nil { form.append(instructions) }
        form += fields
        if let message = model.message {
            form.append(ScreenParts.message(message, isError: model.isError, identifier: id("message")))
        }
        if model.approving != nil { form += (note.map { [$0] } ?? []) + [instructions] } else if let note { form.append(note) }
        form.append(Spacer())
        return HStack(spacing: Theme.Spacing.xxLarge, padding: .symmetric(horizontal: Theme.Spacing.xLarge, vertical: Theme.Spacing.medium), [
            // A longer language at large text scrolls the form rather than squeeze its fields.
            Flexible(1, ScrollArea(identifier: id("form"), label: model.title, VStack(spacing: Theme.Spacing.compact, form))),
            Flexible(1, Keypad(identifier: id("pin"), model.keypad, isEnabled: model.state != .verifying)),
        ])
    }
}

extension SignInScreen {
    private func digits(_ actions: ScreenActions) -> DigitEntry {
        DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: { actions.perform { await model.enter() } })
    }

    /// The controls of the form the screen shows: `sign-in.` while an
    /// operator signs in, `approval.` while a supervisor approves.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .signIn: model.approving == nil
        case .approval: model.approving != nil
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        let part: Control.Part = switch control {
        case .signIn(let part), .approval(let part): part
        }
        switch part {
        case .key(let key): digits(actions).tap(key)
        case .back: model.back()
        // Tapping the operator field while typing the PIN goes back to the id.
        case .operatorField: if model.step == .pin { model.back() }
        case .pinField: break
        }
    }

    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        digits(actions).key(key)
    }
}
