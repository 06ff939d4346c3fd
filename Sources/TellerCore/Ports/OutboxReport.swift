import FoundationEssentials

/// What `teller status`, `teller metrics` and the metrics file report
/// about the outbox, read in one place (TellerData's `TellerStore.report()`)
/// so that they never disagree.
public struct OutboxReport: Sendable {
    public var summary: QueueSummary
    /// Rows a person has to look at, oldest first.
    public var needsReview: [OutboxEntry]
    /// The problem the sync engine last recorded, or nil.
    public var problem: SyncProblem?
    /// When the bank last confirmed a row, or nil when it never has.
    public var lastConfirmedAt: Date?
    /// Till openings and closings not yet recorded by the bank.
    public var tillEventsQueued: Int
    /// What retention has removed so far.
    public var retention = RetentionReport()

    public init(summary: QueueSummary, needsReview: [OutboxEntry], problem: SyncProblem?, lastConfirmedAt: Date?, tillEventsQueued: Int,
                retention: RetentionReport = RetentionReport()) {
        self.summary = summary
        self.needsReview = needsReview
        self.problem = problem
        self.lastConfirmedAt = lastConfirmedAt
        self.tillEventsQueued = tillEventsQueued
        self.retention = retention
    }
}
