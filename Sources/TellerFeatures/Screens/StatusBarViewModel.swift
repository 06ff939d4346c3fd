import Foundation
import TellerCore

/// The status bar on every screen: connection, queue, last sync, who and
/// where, and the clock.
@MainActor
public final class StatusBarViewModel {
    private let dependencies: FeatureDependencies
    public private(set) var isOnline = false
    public private(set) var summary: QueueSummary?
    public private(set) var lastSyncAt: Date?
    public private(set) var signedIn: Operator?

    init(dependencies: FeatureDependencies) {
        self.dependencies = dependencies
    }

    func update(online: Bool, lastSyncAt: Date?, summary: QueueSummary?, signedIn: Operator?) {
        isOnline = online
        self.lastSyncAt = lastSyncAt
        if let summary { self.summary = summary }
        self.signedIn = signedIn
    }

    public var connectionText: String { isOnline ? "Online" : "Offline" }
    public var connectionAccessibilityLabel: String { isOnline ? "Connection: online" : "Connection: offline, transactions are queued" }

    public var queueText: String {
        guard let summary, summary.pendingCount > 0 else { return "Queue empty" }
        let amounts = summary.pendingByCurrency.values.sorted { $0.currency.code < $1.currency.code }.map(MoneyFormatting.text)
        return "\(summary.pendingCount) queued · \(amounts.joined(separator: " + "))"
    }

    public var queueAccessibilityLabel: String { "Queue: \(queueText)" }

    public var rejectedText: String? {
        guard let count = summary?.unacknowledgedRejections, count > 0 else { return nil }
        return count == 1 ? "1 rejected" : "\(count) rejected"
    }

    public var syncText: String {
        guard let lastSyncAt else { return "Never synced" }
        return "Synced \(dependencies.time.relative(lastSyncAt, now: dependencies.clock.now()))"
    }

    public var whoText: String {
        let terminal = dependencies.terminal.terminalID
        guard let signedIn else { return terminal }
        return "\(signedIn.displayName) · \(terminal)"
    }

    public var clockText: String { dependencies.time.clock(dependencies.clock.now()) }
}
