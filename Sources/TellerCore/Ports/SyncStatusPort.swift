import FoundationEssentials

/// What the sync engine tells the interface as it drains the outbox.
public enum SyncEvent: Hashable, Sendable {
    case queued(IdempotencyKey)
    /// The request left: its connection and TLS handshake are up. A refused
    /// connection or handshake sends nothing and says nothing here.
    case sending(IdempotencyKey)
    case confirmed(IdempotencyKey, reference: String)
    case rejected(IdempotencyKey, reason: String)
    case needsReview(IdempotencyKey, reason: String)
    case online
    case offline
    /// The engine's problem changed (nil: solved).
    case problem(SyncProblem?)
}

/// The connection state shown in the status bar.
public struct SyncStatus: Hashable, Sendable {
    /// True only while the last request to the host got the bank's answer.
    public var isOnline: Bool
    public var lastSyncAt: Date?
    /// Why rows are not going out, or nil when nothing is wrong.
    public var problem: SyncProblem?
    /// False when the terminal's clock is below its trusted floor or off
    /// from the bank's time: the status bar says "Clock not set".
    public var clockVerified: Bool

    public init(isOnline: Bool, lastSyncAt: Date?, problem: SyncProblem? = nil, clockVerified: Bool = true) {
        self.isOnline = isOnline
        self.lastSyncAt = lastSyncAt
        self.problem = problem
        self.clockVerified = clockVerified
    }
}

/// The sync engine as the features see it.
public protocol SyncStatusPort: Sendable {
    /// A new subscription to every event from now on.
    func events() async -> AsyncStream<SyncEvent>
    func status() async -> SyncStatus
    /// Wakes the engine to drain now instead of at its next timer.
    func syncNow() async
}
