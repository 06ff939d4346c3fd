import FoundationEssentials

/// Counts and totals of the outbox, for the status bar and `teller status`.
public struct QueueSummary: Hashable, Sendable {
    /// Rows per state; the store lists every state, those without rows as 0.
    public var countsByState: [OutboxState.Kind: Int]
    /// Money not yet at the host, per currency.
    public var pendingByCurrency: [Currency: Money]
    public var oldestQueuedAt: Date?
    /// Rejected rows no operator has acknowledged yet.
    public var unacknowledgedRejections: Int
    /// Needs-review rows no operator has acknowledged yet.
    public var unacknowledgedReviews: Int

    public init(countsByState: [OutboxState.Kind: Int], pendingByCurrency: [Currency: Money], oldestQueuedAt: Date?, unacknowledgedRejections: Int, unacknowledgedReviews: Int = 0) {
        self.countsByState = countsByState
        self.pendingByCurrency = pendingByCurrency
        self.oldestQueuedAt = oldestQueuedAt
        self.unacknowledgedRejections = unacknowledgedRejections
        self.unacknowledgedReviews = unacknowledgedReviews
    }

    /// Queued plus sending.
    public var pendingCount: Int { countsByState.filter(\.key.isPending).values.reduce(0, +) }
}

/// The durable outbox: where every confirmed transaction is written before
/// the screen says "Queued" (see "One write: the outbox" in the design).
public protocol OutboxPort: Sendable {
    /// Checks the limits against what is stored and appends one row, in one
    /// write transaction. Returning means the row is on disk. The offline
    /// limits apply unless the bank answered within the last request
    /// timeout: the data layer decides from evidence, not from a belief
    /// passed in.
    func enqueue(_ request: TransactionRequest) async throws(TellerError) -> OutboxEntry
    /// What is left under each limit for the amount entry screen.
    func remainingLimits(kind: TransactionKind, account: IBAN) async throws(TellerError) -> RemainingLimits
    /// The rows the queue shows, newest first: every row still to settle
    /// (queued, sending, needing review, rejected and not acknowledged) and
    /// the newest ``OutboxQueue/recentRows`` of the rest. Older settled rows
    /// are the journal's (`teller journal export`).
    func entries() async throws(TellerError) -> [OutboxEntry]
    func summary() async throws(TellerError) -> QueueSummary
    /// Queued and sending debits against one account.
    func pendingDebits(for account: IBAN) async throws(TellerError) -> [OutboxEntry]
    /// Every queued or sending row of one account, newest first ("Queued" on the account screen).
    func pendingEntries(for account: IBAN) async throws(TellerError) -> [OutboxEntry]
    /// Records that an operator has seen a rejected or needs-review row and told the customer.
    func acknowledge(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError)
    /// Voids a payment that is still queued, with its journal entry, in one
    /// transaction; the sync engine never sends it afterwards.
    /// - Returns: the row as it is now, voided.
    /// - Throws: ``TellerError/voidRefused(_:)`` when the row is being sent
    ///   or is already final (``VoidRefusal/alreadySent(reference:)``: a
    ///   reversal can undo it), ``TellerError/noSuchEntry(_:)`` when there is no such row.
    func void(_ key: IdempotencyKey, reason: VoidReason, by operatorID: OperatorID) async throws(TellerError) -> OutboxEntry
    /// Queues a new payment that undoes the posted payment `key` (a deposit by
    /// a withdrawal from the same account, a withdrawal by a deposit, a
    /// transfer by one back), referring to it, under the same limits as any
    /// payment, with its journal entry, in one transaction.
    /// - Throws: ``TellerError/reversalRefused(_:)`` unless the bank posted
    ///   `key` and nothing reverses it yet; ``TellerError/limit(_:)``.
    func reverse(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) -> OutboxEntry
}

/// How much of the settled history the queue shows.
public enum OutboxQueue {
    /// The newest rows shown beside every row still to settle: about a busy counter's day.
    public static let recentRows = 200
}
