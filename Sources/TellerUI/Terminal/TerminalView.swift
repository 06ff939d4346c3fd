import TellerFeatures
import Widgets

/// The whole terminal as one widget tree: the status bar and the screen on
/// top of the coordinator's stack; and the one place where taps, keys and
/// raw touches become view-model calls.
///
/// The app lays out ``body()`` with its own `LayoutContext`, which carries
/// the theme (`Theme.standard` or `.highContrast`), the panel scale and the
/// operator's text scale (1.0 to 2.0):
///
///     let view = TerminalView(coordinator: coordinator)
///     var context = LayoutContext(scale: Scale(1), textScale: 1, theme: .standard, fonts: fonts, state: interaction)
///     context.state = view.interactionState(interaction)
///     let tree = context.layout(view.body(), in: Size(width: 800, height: 480))
///
/// Taps the `TouchTracker` reports go to ``handleTap(identifier:)``, keys to
/// ``handleText(_:)`` or ``handleKey(_:)``, and touches that hit no control
/// to ``handleTouch(x:y:rawX:rawY:)``. Redraw when the coordinator's
/// `onChange` fires.
@MainActor
public final class TerminalView {
    public let coordinator: Coordinator
    /// What a scanner or keyboard typed since the last Enter on this screen.
    var typedLine = ""
    private var typedLineScreen: ObjectIdentifier?

    public init(coordinator: Coordinator) {
        self.coordinator = coordinator
    }

    /// The root widget: a `Screen` whose identifier is the screen's name.
    public func body() -> any Widget {
        let current = coordinator.current
        let (title, content) = screenContent(current)
        if isFullScreen { return Screen(identifier: current.name, title: title, content) }
        return Screen(identifier: current.name, title: title, VStack(spacing: 0, [
            StatusBar(model: coordinator.statusBar).body(),
            Flexible(1, content),
        ]))
    }

    /// The identifier of the field that keys type into, if the screen has one.
    public var focusedField: String? {
        switch coordinator.current {
        case .signIn(let model): SignInScreen(model: model).focusedField
        case .locked(let model): LockedScreen(model: model).focusedField
        case .findAccount(let model): FindAccountScreen(model: model).focusedField
        case .amount(let model): AmountEntryScreen(model: model).focusedField
        case .diagnostics(let model): DiagnosticsScreen(model: model).focusedField
        default: nil
        }
    }

    /// `state` with the focus the view models hold, for the next layout.
    public func interactionState(_ state: InteractionState) -> InteractionState {
        var state = state
        state.focused = focusedField
        return state
    }

    /// True while the screen covers the status bar (touch test, calibration).
    public var isFullScreen: Bool {
        if case .diagnostics(let model) = coordinator.current { return DiagnosticsScreen(model: model).isFullScreen }
        return false
    }

    /// True while raw touches mean something (touch test, calibration);
    /// the app may skip ``handleTouch(x:y:rawX:rawY:)`` otherwise.
    public var wantsRawTouches: Bool { isFullScreen }

    private func screenContent(_ screen: ScreenModel) -> (String, any Widget) {
        switch screen {
        case .signIn(let model): (model.title, SignInScreen(model: model).body())
        case .locked(let model): (model.title, LockedScreen(model: model).body())
        case .home(let model): (model.title, HomeScreen(model: model).body())
        case .findAccount(let model): (model.title, FindAccountScreen(model: model).body())
        case .account(let model): (model.title, AccountScreen(model: model).body())
        case .amount(let model): (model.title, AmountEntryScreen(model: model).body())
        case .review(let model): (model.title, ReviewScreen(model: model).body())
        case .receipt(let model): (model.statusTitle, ReceiptScreen(model: model).body())
        case .queue(let model): (model.title, QueueScreen(model: model).body())
        case .diagnostics(let model): (model.title, DiagnosticsScreen(model: model).body())
        }
    }

    /// The view model on top, as an identity, so typed text does not leak
    /// from one screen into the next.
    var currentScreenIdentity: ObjectIdentifier {
        switch coordinator.current {
        case .signIn(let m): ObjectIdentifier(m)
        case .locked(let m): ObjectIdentifier(m)
        case .home(let m): ObjectIdentifier(m)
        case .findAccount(let m): ObjectIdentifier(m)
        case .account(let m): ObjectIdentifier(m)
        case .amount(let m): ObjectIdentifier(m)
        case .review(let m): ObjectIdentifier(m)
        case .receipt(let m): ObjectIdentifier(m)
        case .queue(let m): ObjectIdentifier(m)
        case .diagnostics(let m): ObjectIdentifier(m)
        }
    }

    /// Appends to the typed line, starting afresh on a new screen.
    func noteTyped(_ character: Character) {
        let screen = currentScreenIdentity
        if typedLineScreen != screen {
            typedLine = ""
            typedLineScreen = screen
        }
        typedLine.append(character)
    }

    /// The typed line on this screen, emptied.
    func takeTypedLine() -> String {
        defer { typedLine = "" }
        return typedLineScreen == currentScreenIdentity ? typedLine : ""
    }
}
