import TellerCore

/// The sync port of a terminal with no host configured: always offline,
/// nothing to drain. Rows stay queued until a host is provisioned.
public struct OfflineSyncStatus: SyncStatusPort {
    private let clock: TrustedClock?

    /// - Parameter clock: whose verdict the status bar shows ("Clock not set").
    public init(clock: TrustedClock? = nil) { self.clock = clock }
    public func events() async -> AsyncStream<SyncEvent> { AsyncStream { _ in } }
    public func status() async -> SyncStatus { SyncStatus(isOnline: false, lastSyncAt: nil, clockVerified: clock?.isVerified ?? true) }
    public func syncNow() async {}
}
