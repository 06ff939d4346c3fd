import TellerFeatures
import Widgets

/// The start screen: find an account (the main job), the queue, lock,
/// sign out, and the technician's diagnostics when the terminal has them.
@MainActor
public struct HomeScreen: TerminalScreen {
    public static let findAccount = "home.find-account"
    public static let queue = "home.queue"
    public static let lock = "home.lock"
    public static let signOut = "home.sign-out"
    public static let diagnostics = "home.diagnostics"
    public static let till = "home.till"

    public let model: HomeViewModel

    public init(model: HomeViewModel) { self.model = model }

    public var title: String { model.title }

    public func body() -> any Widget {
        var bottom: [any Widget] = [
            Flexible(1, Frame(height: 64, Button(model.lockTitle, identifier: Self.lock, style: .secondary))),
            Flexible(1, Frame(height: 64, Button(model.signOutTitle, identifier: Self.signOut, style: .destructive))),
        ]
        if model.hasDiagnostics {
            bottom.insert(Flexible(1, Frame(height: 64, Button(model.diagnosticsTitle, identifier: Self.diagnostics, style: .secondary))),
                          at: 0)
        }
        return VStack(spacing: 16, padding: .symmetric(horizontal: 24, vertical: 16), [
            Label(model.title, style: .title),
            Frame(height: 120, Button(model.findAccountTitle, identifier: Self.findAccount)),
            Frame(height: 72, HStack(spacing: 16, [Flexible(2, Button(model.queueTitle, identifier: Self.queue, style: .secondary))]
                                        + (model.hasTill ? [Flexible(1, Button(model.tillTitle, identifier: Self.till, style: .secondary))] : []))),
            Spacer(),
            HStack(spacing: 16, bottom),
        ])
    }
}

extension HomeScreen {
    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        switch identifier {
        case Self.findAccount: model.findAccount()
        case Self.queue: model.openQueue()
        case Self.till where model.hasTill: model.openTill()
        case Self.lock: model.lock()
        case Self.signOut: model.signOut()
        case Self.diagnostics where model.hasDiagnostics: model.openDiagnostics()
        default: return false
        }
        return true
    }
}
