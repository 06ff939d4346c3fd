import TellerFeatures
import Widgets

/// The start screen: find an account (the main job), the queue, lock,
/// sign out, and the technician's diagnostics when the terminal has them.
@MainActor
public struct HomeScreen: TerminalScreen {
    public enum Control: String {
        case findAccount = "home.find-account"
        case queue = "home.queue"
        case lock = "home.lock"
        case signOut = "home.sign-out"
        case diagnostics = "home.diagnostics"
        case till = "home.till"
    }

    public let model: HomeViewModel

    public init(model: HomeViewModel) { self.model = model }

    public var title: String { model.title }

    public func body() -> any Widget {
        var bottom: [any Widget] = [
            Flexible(1, Frame(height: Theme.Size.buttonRowHeight, button(model.lockTitle, .lock, style: .secondary))),
            Flexible(1, Frame(height: Theme.Size.buttonRowHeight, button(model.signOutTitle, .signOut, style: .destructive))),
        ]
        if isEnabled(.diagnostics) {
            bottom.insert(Flexible(1, Frame(height: Theme.Size.buttonRowHeight, button(model.diagnosticsTitle, .diagnostics, style: .secondary))),
                          at: 0)
        }
        return VStack(spacing: Theme.Spacing.large, padding: .symmetric(horizontal: Theme.Spacing.xxLarge, vertical: Theme.Spacing.large), [
            Label(model.title, style: .title),
            Frame(height: Theme.Size.heroButtonHeight, button(model.findAccountTitle, .findAccount)),
            Frame(height: Theme.Size.tallButtonHeight,
                  HStack(spacing: Theme.Spacing.large, [Flexible(2, button(model.queueTitle, .queue, style: .secondary))]
                         + (isEnabled(.till) ? [Flexible(1, button(model.tillTitle, .till, style: .secondary))] : []))),
            Spacer(),
            HStack(spacing: Theme.Spacing.large, bottom),
        ])
    }
}

extension HomeScreen {
    /// The till and the diagnostics are there only when the terminal has them.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .till: model.hasTill
        case .diagnostics: model.hasDiagnostics
        case .findAccount, .queue, .lock, .signOut: true
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .findAccount: model.findAccount()
        case .queue: model.openQueue()
        case .till: model.openTill()
        case .lock: model.lock()
        case .signOut: model.signOut()
        case .diagnostics: model.openDiagnostics()
        }
    }
}
