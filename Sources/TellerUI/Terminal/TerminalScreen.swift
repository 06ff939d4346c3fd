import TellerFeatures
import Widgets

/// One screen of the terminal: what it draws and what its taps, keys and
/// raw touches mean. `TerminalView` asks the screen on top and nothing
/// else; `ScreenFactory.swift` builds it from its view model's
/// `ScreenKind`, in a switch the compiler holds exhaustive.
///
/// A screen is a value built from its view model on every frame; it keeps
/// no state of its own.
@MainActor
public protocol TerminalScreen {
    /// The screen's controls, one case each (or one case for a family, such
    /// as a keypad's keys or a list's rows), whose raw values are the
    /// accessibility identifiers QA, scenarios and tests tap
    /// (`"account.deposit"`). `TerminalView` turns a tapped identifier into
    /// one before the screen sees it, as LVGL hands a click to its object.
    associatedtype Control: RawRepresentable where Control.RawValue == String
    /// The title the accessibility tree gives the whole screen.
    var title: String { get }
    func body() -> any Widget
    /// The identifier of the field that keys type into, if any.
    var focusedField: String? { get }
    /// True while the screen covers the status bar (touch test, calibration).
    var isFullScreen: Bool { get }
    /// Whether `control` is shown enabled and takes a tap now: the one place
    /// a control's rule is written. The screen's buttons draw with it
    /// (``button(_:_:accessibilityLabel:style:)``), and `TerminalView` never
    /// delivers a tap it refuses (a stale tap, a control not shown).
    func isEnabled(_ control: Control) -> Bool
    /// An enabled control was tapped.
    func tap(_ control: Control, _ actions: ScreenActions)
    /// A key from a hardware keyboard or scanner.
    func key(_ key: TerminalKey, _ actions: ScreenActions)
    /// A touch that hit no control (only while ``isFullScreen``).
    func touch(_ touch: RawTouch, _ actions: ScreenActions)
}

extension TerminalScreen {
    public var focusedField: String? { nil }
    public var isFullScreen: Bool { false }
    public func isEnabled(_ control: Control) -> Bool { true }
    public func key(_ key: TerminalKey, _ actions: ScreenActions) {}
    public func touch(_ touch: RawTouch, _ actions: ScreenActions) {}

    /// Hands a tapped identifier to the screen as its control.
    ///
    /// - Returns: False when the identifier names no control of this screen,
    ///   or one ``isEnabled(_:)`` refuses now.
    func tap(identifier: String, _ actions: ScreenActions) -> Bool {
        guard let control = Control(rawValue: identifier), isEnabled(control) else { return false }
        tap(control, actions)
        return true
    }

    /// A button for `control`, drawn enabled as ``isEnabled(_:)`` says.
    func button(_ title: String, _ control: Control, accessibilityLabel: String? = nil, style: ButtonStyle = .primary) -> Button {
        Button(title, identifier: control.rawValue, accessibilityLabel: accessibilityLabel, style: style, isEnabled: isEnabled(control))
    }
}

extension String {
    /// The member part of an identifier in a family of controls:
    /// `"queue.row.3".member(of: "queue.row")` is `"3"`; nil outside the family.
    func member(of family: String) -> Substring? {
        guard count > family.count + 1, hasPrefix(family), self[index(startIndex, offsetBy: family.count)] == "." else { return nil }
        return dropFirst(family.count + 1)
    }
}

/// What a screen may do besides calling its view model: run the view
/// model's async work so that tests and QA can wait for it, and move its
/// own lists.
@MainActor
public struct ScreenActions {
    let coordinator: Coordinator
    let view: TerminalView

    public func perform(_ work: @escaping @MainActor () async -> Void) {
        coordinator.perform(work)
    }

    /// Sends the list (or scroll area) `identifier` to its first or last row
    /// from the next layout on: a "jump to the oldest" control.
    public func scroll(_ identifier: String, to edge: InteractionState.ScrollEdge) {
        view.requestScroll(identifier, to: edge)
    }
}

/// A touch that hit no control.
public struct RawTouch: Hashable, Sendable {
    /// Display pixel column and row, after rotation and calibration.
    public var x: Int
    public var y: Int
    /// Where the panel reported it before any calibration, normalised to
    /// 0...1 of its range; calibration solves from these.
    public var rawX: Double
    public var rawY: Double
}

/// Entry of digits, as on the sign-in, lock and technician PIN screens:
/// the on-screen keypad and a keyboard's digits, Backspace and Enter.
@MainActor
struct DigitEntry {
    let press: (Character) -> Void
    let backspace: () -> Void
    let enter: () -> Void

    /// A tap on one of the keypad's keys.
    func tap(_ key: KeypadKey) {
        switch key {
        case .digit(let n): press(Character(String(n)))
        case .doubleZero: press("0"); press("0")
        case .backspace: backspace()
        case .enter: enter()
        case .letter, .space: break
        }
    }

    func key(_ key: TerminalKey) {
        switch key {
        case .character(let character) where character.isASCII && character.isNumber: press(character)
        case .backspace: backspace()
        case .enter: enter()
        default: break
        }
    }
}
