import TellerCore
import TellerFeatures
import Widgets

/// Technician diagnostics: the technician PIN, then the report, a touch
/// test that marks each touch, and a 3-point calibration with a cross on
/// the current target. The touch test and calibration fill the display
/// (``isFullScreen``) so that marks sit exactly where the finger was.
@MainActor
public struct DiagnosticsScreen: TerminalScreen {
    public enum Control: RawRepresentable {
        case open, back, done, touchTest, calibrate, pinField
        /// A key of the technician PIN's keypad (`diagnostics.pin.5`).
        case key(KeypadKey)
        /// A line of the report (`diagnostics.report.0`): it takes the tap and does nothing.
        case reportLine(Int)
        /// A language button: `diagnostics.language.de`.
        case language(Language)

        public static let keypad = "diagnostics.pin"
        public static let report = "diagnostics.report"
        public static let languages = "diagnostics.language"
        /// Where the touch test and calibration take raw touches.
        public static let touchArea = "diagnostics.touch-area"

        public var rawValue: String {
            switch self {
            case .open: "diagnostics.open"
            case .back: "diagnostics.back"
            case .done: "diagnostics.done"
            case .touchTest: "diagnostics.touch-test"
            case .calibrate: "diagnostics.calibrate"
            case .pinField: "diagnostics.pin-field"
            case .key(let key): "\(Self.keypad).\(key.identifierSuffix)"
            case .reportLine(let line): "\(Self.report).\(line)"
            case .language(let language): "\(Self.languages).\(language.code)"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.open, .back, .done, .touchTest, .calibrate, .pinField].first(where: { $0.rawValue == rawValue }) {
                self = fixed
            } else if let key = KeypadKey(tapIdentifier: rawValue, keypadIdentifier: Self.keypad) {
                self = .key(key)
            } else if let line = rawValue.member(of: Self.report).flatMap({ Int($0) }) {
                self = .reportLine(line)
            } else if let language = rawValue.member(of: Self.languages).flatMap({ Language(code: String($0)) }) {
                self = .language(language)
            } else {
                return nil
            }
        }
    }

    public let model: DiagnosticsViewModel

    public init(model: DiagnosticsViewModel) { self.model = model }

    public var focusedField: String? { model.mode == .locked ? Control.pinField.rawValue : nil }

    /// The touch test and calibration cover the status bar too.
    public var isFullScreen: Bool {
        switch model.mode {
        case .touchTest, .calibrating: true
        default: false
        }
    }

    public var title: String { model.title }

    public func body() -> any Widget {
        switch model.mode {
        case .locked: pinLayout()
        case .report, .calibrated: reportLayout()
        case .touchTest, .calibrating: markLayout()
        }
    }

    private func pinLayout() -> any Widget {
        var form: [any Widget] = [
            ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue), title: model.title),
            ScreenParts.captioned(model.pinPrompt,
                                  TextField(identifier: Control.pinField.rawValue, label: model.pinPrompt, value: model.pinFieldText, isSecure: true)),
        ]
        if let message = model.message {
            form.append(ScreenParts.message(message, isError: true, identifier: "diagnostics.message"))
        }
        form.append(Spacer())
        return HStack(spacing: Theme.Spacing.xxLarge, padding: .symmetric(horizontal: Theme.Spacing.xLarge, vertical: Theme.Spacing.medium), [
            Flexible(1, VStack(spacing: Theme.Spacing.compact, form)),
            // Open is the keypad's enter key: one primary action, under the thumb.
            Flexible(1, Keypad(identifier: Control.keypad, model.keypad, primaryAction: Control.open.rawValue)),
        ])
    }

    private func reportLayout() -> any Widget {
        let calibrated = model.mode == .calibrated
        var children: [any Widget] = [
            HStack(spacing: Theme.Spacing.medium, alignment: .center, [
                calibrated ? ScreenParts.backButton(model.doneTitle, identifier: Control.done.rawValue)
                           : ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue),
                Label(model.title, style: .title),
                Spacer(),
                button(model.touchTestTitle, .touchTest, style: .secondary),
                button(model.calibrateTitle, .calibrate, style: .secondary),
            ]),
        ]
        children.append(languageRow())
        if let instruction = model.instruction {
            children.append(Label(instruction, style: .body, color: .success, maxLines: 2, identifier: "diagnostics.instruction"))
        }
        if let message = model.message {
            children.append(ScreenParts.message(message, isError: true, identifier: "diagnostics.message"))
        }
        children.append(List(identifier: Control.report, label: model.title, rows: model.lines.enumerated().map { index, line in
            ListRow(identifier: Control.reportLine(index).rawValue, title: line.value, subtitle: line.label)
        }))
        return VStack(spacing: Theme.Spacing.small, padding: .symmetric(horizontal: Theme.Spacing.medium, vertical: Theme.Spacing.small), children)
    }

    /// The language switch: each language in its own name, the current one
    /// highlighted. One row when it fits, two when large text needs them.
    private func languageRow() -> any Widget {
        let buttons: [any Widget] = model.languages.map { choice in
            button(choice.title, .language(choice.language), style: choice.isCurrent ? .primary : .secondary)
        }
        let title = Label(model.languageTitle, style: .body, color: .secondaryText)
        return FirstThatFits([
            HStack(spacing: Theme.Spacing.small, alignment: .center, [title] + buttons + [Spacer()]),
            VStack(spacing: Theme.Spacing.xSmall, [
                title,
                HStack(spacing: Theme.Spacing.small, Array(buttons.prefix(3))),
                HStack(spacing: Theme.Spacing.small, Array(buttons.dropFirst(3))),
            ]),
        ])
    }

    private func markLayout() -> any Widget {
        let marks = TouchMarks(identifier: Control.touchArea,
                               label: model.mode == .touchTest ? model.touchAreaLabel : model.calibrationAreaLabel,
                               dots: model.mode == .touchTest ? model.touches : [],
                               crosses: model.currentTarget.map { [$0] } ?? [])
        let controls = VStack(spacing: Theme.Spacing.medium, padding: .all(Theme.Spacing.large), [
            Spacer(),
            Label(model.instruction ?? "", style: .headline, alignment: .center, maxLines: 2, identifier: "diagnostics.instruction"),
            Label(model.message ?? "", style: .body, color: .danger, alignment: .center, maxLines: 2, identifier: "diagnostics.message"),
            Spacer(),
            HStack(spacing: Theme.Spacing.medium, [Spacer(), button(model.doneTitle, .done, style: .secondary)]),
        ])
        return Overlay(marks, controls)
    }
}

extension DiagnosticsScreen {
    private func digits(_ actions: ScreenActions) -> DigitEntry {
        DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: { actions.perform { await model.unlock() } })
    }

    /// The PIN's keys and Open only while locked; the report's buttons only once unlocked.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .key, .open: model.mode == .locked
        case .touchTest, .calibrate, .language: model.mode != .locked
        case .back, .done, .pinField, .reportLine: true
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .key(let key): digits(actions).tap(key)
        case .open: digits(actions).enter()
        case .back, .done: model.done()
        case .touchTest: model.startTouchTest()
        case .calibrate: model.startCalibration()
        case .pinField, .reportLine: break
        case .language(let language): actions.perform { await model.switchLanguage(to: language) }
        }
    }

    /// Only the technician PIN takes keys.
    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        if model.mode == .locked { digits(actions).key(key) }
    }

    public func touch(_ touch: RawTouch, _ actions: ScreenActions) {
        switch model.mode {
        case .touchTest: model.touched(x: touch.x, y: touch.y)
        case .calibrating: actions.perform { await model.calibrationTap(rawX: touch.rawX, rawY: touch.rawY) }
        default: break
        }
    }
}
