import Observation
import TellerCore

/// The signed-in start screen.
@MainActor @Observable
public final class HomeViewModel {
    @ObservationIgnored private weak var navigator: (any Navigator)?
    private let dependencies: FeatureDependencies
    public private(set) var pendingCount = 0
    public private(set) var rejectedCount = 0

    init(dependencies: FeatureDependencies, navigator: any Navigator) {
        self.dependencies = dependencies
        self.navigator = navigator
    }

    public var title: String { navigator?.signedInOperator.map { tr("Hello, {name}", ["name": Localization.verbatim($0.displayName)]) } ?? tr("Teller") }
    public var findAccountTitle: String { tr("Find account") }
    public var queueTitle: String {
        var text = pendingCount == 0 ? tr("Queue") : tr("Queue ({count})", ["count": Localization.digits(String(pendingCount))])
        if rejectedCount > 0 { text += " · " + trn("{count} to acknowledge", "{count} to acknowledge", count: rejectedCount) }
        return text
    }
    public var lockTitle: String { tr("Lock") }
    public var signOutTitle: String { tr("Sign out") }
    public var diagnosticsTitle: String { tr("Technician") }
    public var tillTitle: String { tr("Till") }
    public var hasTill: Bool { dependencies.till != nil }
    public var hasDiagnostics: Bool { dependencies.diagnostics != nil }

    public func summaryChanged(_ summary: QueueSummary) {
        pendingCount = summary.pendingCount
        rejectedCount = summary.unacknowledgedRejections
    }

    public func findAccount() { navigator?.push(.findAccount) }
    public func openQueue() { navigator?.push(.queue) }
    public func openTill() { navigator?.push(.till) }
    public func openDiagnostics() { navigator?.push(.diagnostics) }
    public func lock() { navigator?.lock() }
    public func signOut() { navigator?.signOut() }
}

extension HomeViewModel: ScreenViewModel {
    public var screenName: String { "home" }
    public var screenKind: ScreenKind { .home(self) }
}
