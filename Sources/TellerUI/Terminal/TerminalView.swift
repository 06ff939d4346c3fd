import TellerCore
import TellerFeatures
import Widgets

/// The whole terminal as one widget tree: the status bar and the screen on
/// top of the coordinator's stack. Taps, keys and raw touches go to that
/// screen (``TerminalScreen``), which turns them into view-model calls.
///
/// The app lays out ``body()`` with its own `LayoutContext`, which carries
/// the theme (`Theme.standard` or `.highContrast`), the panel scale, the
/// operator's text scale (1.0 to 2.0) and the language's direction:
///
///     let view = TerminalView(coordinator: coordinator)
///     var context = LayoutContext(scale: Scale(1), textScale: 1, theme: .standard, fonts: fonts, state: interaction)
///     interaction = view.interactionState(interaction)
///     context.state = interaction
///     context.direction = view.layoutDirection
///     let tree = context.layout(view.body(), in: Size(width: 800, height: 480))
///
/// A laid-out tree kept between frames is stale once ``languageRevision``
/// changes: the same screen then reads in other words, and perhaps the other way.
///
/// Taps the `TouchTracker` reports go to ``handleTap(identifier:)``, keys to
/// ``handleText(_:)`` or ``handleKey(_:)``, and touches that hit no control
/// to ``handleTouch(x:y:rawX:rawY:)``. Redraw when a view model changes
/// what the last layout read (the coordinator, the status bar and every
/// view model are `@Observable`; `withObservationTracking` around the layout
/// tells, as `TerminalRuntime` does).
@MainActor
public final class TerminalView {
    public let coordinator: Coordinator
    /// Jumps screens asked for since the last layout (``ScreenActions/scroll(_:to:)``).
    private var scrollRequests: [(list: String, edge: InteractionState.ScrollEdge)] = []

    public init(coordinator: Coordinator) {
        self.coordinator = coordinator
    }

    /// The screen on top.
    public var screen: any TerminalScreen { coordinator.current.screenKind.screen }

    private var actions: ScreenActions { ScreenActions(coordinator: coordinator, view: self) }

    /// The root widget: a `Screen` whose identifier is the screen's name.
    public func body() -> any Widget {
        let screen = screen
        let name = coordinator.current.screenName
        if screen.isFullScreen { return Screen(identifier: name, title: screen.title, screen.body()) }
        return Screen(identifier: name, title: screen.title, VStack(spacing: 0, [
            StatusBar(model: coordinator.statusBar).body(),
            Flexible(1, screen.body()),
        ]))
    }

    /// Right to left while the terminal speaks a right-to-left language
    /// (Arabic): screens mirror, numbers and keypads do not.
    public var layoutDirection: LayoutDirection {
        Localization.language.isRightToLeft ? .rightToLeft : .leftToRight
    }

    /// Changes with every switch of language or regional format: the body
    /// built before says other words, formats numbers otherwise, and may
    /// read the other way.
    public var languageRevision: Int { Localization.currentRevision }

    /// The identifier of the field that keys type into, if the screen has one.
    public var focusedField: String? { screen.focusedField }

    /// `state` with the focus the view models hold and the jumps screens
    /// asked for, for the next layout. Keep the result as the new state: a
    /// jump is applied once, and dragging goes on from where it put the list.
    public func interactionState(_ state: InteractionState) -> InteractionState {
        var state = state
        state.focused = focusedField
        for request in scrollRequests { state.scroll(request.list, to: request.edge) }
        scrollRequests.removeAll()
        return state
    }

    /// Whether a jump waits for the next layout; a running fling should give way to it.
    public var hasScrollRequests: Bool { !scrollRequests.isEmpty }

    func requestScroll(_ identifier: String, to edge: InteractionState.ScrollEdge) {
        scrollRequests.append((identifier, edge))
    }

    /// True while the screen covers the status bar (touch test, calibration).
    public var isFullScreen: Bool { screen.isFullScreen }

    /// True while raw touches mean something (touch test, calibration);
    /// the app may skip ``handleTouch(x:y:rawX:rawY:)`` otherwise.
    public var wantsRawTouches: Bool { isFullScreen }

    /// A control was tapped.
    ///
    /// - Parameter identifier: The control's accessibility identifier, as
    ///   `TouchTracker` or `teller ctl tap` reports it.
    /// - Returns: False when the identifier means nothing on the screen on
    ///   top (a stale tap after the screen changed).
    @discardableResult
    public func handleTap(identifier: String) -> Bool {
        coordinator.noteActivity()
        return screen.tap(identifier: identifier, actions)
    }

    /// Text from a hardware keyboard or scanner: characters go to the
    /// focused field; "\n" or "\r" is Enter, "\u{8}" or DEL is Backspace,
    /// "\t" is Tab.
    public func handleText(_ text: String) {
        for character in text {
            switch character {
            case "\n", "\r", "\r\n": handleKey(.enter)
            case "\u{8}", "\u{7F}": handleKey(.backspace)
            case "\t": handleKey(.tab)
            default: handleKey(.character(character))
            }
        }
    }

    /// One key from a hardware keyboard or scanner.
    public func handleKey(_ key: TerminalKey) {
        coordinator.noteActivity()
        screen.key(key, actions)
    }

    /// A touch that hit no control, for the touch test and calibration.
    ///
    /// - Parameters:
    ///   - x: Display pixel column, after rotation and calibration.
    ///   - y: Display pixel row.
    ///   - rawX: Where the panel reported it before any calibration,
    ///     normalised to 0...1 of its range; calibration solves from these.
    ///   - rawY: As `rawX`, for rows.
    public func handleTouch(x: Int, y: Int, rawX: Double, rawY: Double) {
        coordinator.noteActivity()
        screen.touch(RawTouch(x: x, y: y, rawX: rawX, rawY: rawY), actions)
    }
}
