import TellerCore

/// The sync port of a terminal with no host configured: always offline,
/// nothing to drain. Rows stay queued until a host is provisioned.
public struct OfflineSyncStatus: SyncStatusPort {
    public init() {}
    public func events() async -> AsyncStream<SyncEvent> { AsyncStream { _ in } }
    public func status() async -> SyncStatus { SyncStatus(isOnline: false, lastSyncAt: nil) }
    public func syncNow() async {}
}
