import TellerCore
import TellerFeatures
import Widgets

/// Technician diagnostics: the technician PIN, then the report, a touch
/// test that marks each touch, and a 3-point calibration with a cross on
/// the current target. The touch test and calibration fill the display
/// (``isFullScreen``) so that marks sit exactly where the finger was.
@MainActor
public struct DiagnosticsScreen: TerminalScreen {
    public static let keypad = "diagnostics.pin"
    public static let pinField = "diagnostics.pin-field"
    public static let open = "diagnostics.open"
    public static let back = "diagnostics.back"
    public static let done = "diagnostics.done"
    public static let touchTest = "diagnostics.touch-test"
    public static let calibrate = "diagnostics.calibrate"
    public static let report = "diagnostics.report"
    public static let touchArea = "diagnostics.touch-area"
    /// A language button: "diagnostics.language.de".
    public static func language(_ code: String) -> String { "diagnostics.language.\(code)" }

    public let model: DiagnosticsViewModel

    public init(model: DiagnosticsViewModel) { self.model = model }

    public var focusedField: String? { model.mode == .locked ? Self.pinField : nil }

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
            ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Self.back), title: model.title),
            ScreenParts.captioned(model.pinPrompt,
                                  TextField(identifier: Self.pinField, label: model.pinPrompt, value: model.pinFieldText, isSecure: true)),
        ]
        if let message = model.message {
            form.append(ScreenParts.message(message, isError: true, identifier: "diagnostics.message"))
        }
        form.append(Spacer())
        return HStack(spacing: 24, padding: .symmetric(horizontal: 20, vertical: 12), [
            Flexible(1, VStack(spacing: 10, form)),
            // Open is the keypad's enter key: one primary action, under the thumb.
            Flexible(1, Keypad(identifier: Self.keypad, model.keypad, primaryAction: Self.open)),
        ])
    }

    private func reportLayout() -> any Widget {
        let calibrated = model.mode == .calibrated
        var children: [any Widget] = [
            HStack(spacing: 12, alignment: .center, [
                calibrated ? ScreenParts.backButton(model.doneTitle, identifier: Self.done)
                           : ScreenParts.backButton(model.backTitle, identifier: Self.back),
                Label(model.title, style: .title),
                Spacer(),
                Button(model.touchTestTitle, identifier: Self.touchTest, style: .secondary),
                Button(model.calibrateTitle, identifier: Self.calibrate, style: .secondary),
            ]),
        ]
        children.append(languageRow())
        if let instruction = model.instruction {
            children.append(Label(instruction, style: .body, color: .success, maxLines: 2, identifier: "diagnostics.instruction"))
        }
        if let message = model.message {
            children.append(ScreenParts.message(message, isError: true, identifier: "diagnostics.message"))
        }
        children.append(List(identifier: Self.report, label: model.title, rows: model.lines.enumerated().map { index, line in
            ListRow(identifier: "\(Self.report).\(index)", title: line.value, subtitle: line.label)
        }))
        return VStack(spacing: 8, padding: .symmetric(horizontal: 12, vertical: 8), children)
    }

    /// The language switch: each language in its own name, the current one
    /// highlighted. One row when it fits, two when large text needs them.
    private func languageRow() -> any Widget {
        let buttons: [any Widget] = model.languages.map { choice in
            Button(choice.title, identifier: Self.language(choice.language.code), style: choice.isCurrent ? .primary : .secondary)
        }
        let title = Label(model.languageTitle, style: .body, color: .secondaryText)
        return FirstThatFits([
            HStack(spacing: 8, alignment: .center, [title] + buttons + [Spacer()]),
            VStack(spacing: 6, [title, HStack(spacing: 8, Array(buttons.prefix(3))), HStack(spacing: 8, Array(buttons.dropFirst(3)))]),
        ])
    }

    private func markLayout() -> any Widget {
        let marks = TouchMarks(identifier: Self.touchArea,
                               label: model.mode == .touchTest ? model.touchAreaLabel : model.calibrationAreaLabel,
                               dots: model.mode == .touchTest ? model.touches : [],
                               crosses: model.currentTarget.map { [$0] } ?? [])
        let controls = VStack(spacing: 12, padding: .all(16), [
            Spacer(),
            Label(model.instruction ?? "", style: .headline, alignment: .center, maxLines: 2, identifier: "diagnostics.instruction"),
            Label(model.message ?? "", style: .body, color: .danger, alignment: .center, maxLines: 2, identifier: "diagnostics.message"),
            Spacer(),
            HStack(spacing: 12, [Spacer(), Button(model.doneTitle, identifier: Self.done, style: .secondary)]),
        ])
        return Overlay(marks, controls)
    }
}

extension DiagnosticsScreen {
    private func digits(_ actions: ScreenActions) -> DigitEntry {
        DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: { actions.perform { await model.unlock() } })
    }

    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        let digits = digits(actions)
        if model.mode == .locked, digits.tap(identifier, keypad: Self.keypad) { return true }
        switch identifier {
        case Self.open where model.mode == .locked: digits.enter()
        case Self.back, Self.done: model.done()
        case Self.touchTest where model.mode != .locked: model.startTouchTest()
        case Self.calibrate where model.mode != .locked: model.startCalibration()
        case Self.pinField: break
        case _ where identifier.hasPrefix("diagnostics.language.") && model.mode != .locked:
            guard let language = Language(code: String(identifier.dropFirst("diagnostics.language.".count))) else { return false }
            actions.perform { await model.switchLanguage(to: language) }
        default: return identifier.hasPrefix(Self.report + ".")
        }
        return true
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
