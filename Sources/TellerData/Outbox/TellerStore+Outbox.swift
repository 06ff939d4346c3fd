import FoundationEssentials
import TellerCore
import SQLite

/// The outbox's port (``OutboxStore`` keeps it). An enqueue is one
/// transaction over several parts: the row and its limits, the open till,
/// the journal entries and the receipts.
extension TellerStore: OutboxPort {
    /// Checks the limits and writes one queued row, in one transaction.
    ///
    /// The online limits apply only on evidence (the bank answered within
    /// the request timeout), and over an offline limit that belief is not
    /// enough: the bank must answer once more, now, or the offline limits
    /// stand. The offline limits include the online ones, so the first try
    /// checks those: an amount within them is written with one read of the
    /// totals, and only one over them asks the bank and reads again.
    public func enqueue(_ request: TransactionRequest) async throws(TellerError) -> OutboxEntry {
        try await enqueueChecked { () throws(TellerError) in (request, nil) }
    }

    /// Inserts the row `prepare` describes (read inside the transaction) as
    /// ``enqueue(_:)`` does: the offline limits first, the online ones over
    /// them only if the bank answers now; then wakes the observers.
    func enqueueChecked(_ prepare: () throws(TellerError) -> (TransactionRequest, reverses: IdempotencyKey?)) async throws(TellerError) -> OutboxEntry {
        let entry: OutboxEntry
        do {
            entry = try insert(prepare, online: false)
        } catch {
            guard case .limit = error, onlineEvidence.bankAnsweredRecently(), await onlineEvidence.proveOnline() else { throw error }
            entry = try insert(prepare, online: true)
        }
        clock.committed(at: entry.createdAt)
        for observer in enqueueObservers { observer(entry) }
        return entry
    }

    /// Checks the request against the online or offline limits and inserts
    /// its row with a fresh key, its frozen body and its journal entry, in
    /// one `BEGIN IMMEDIATE` transaction whose commit (synchronous=FULL) is
    /// the success.
    /// - Parameter prepare: the request and the payment it reverses, read
    ///   inside the transaction (a reversal checks its original there).
    private func insert(_ prepare: () throws(TellerError) -> (TransactionRequest, reverses: IdempotencyKey?), online: Bool) throws(TellerError) -> OutboxEntry {
        try translating {
            try database.inTransaction(.immediate) {
                let (request, reverses) = try prepare()
                // A clock below the trusted floor: the row is stamped from the floor and says so.
                let (now, verified) = stamp()
                let overridden = try outbox.checkLimits(request, online: online, at: now)
                // Cash moves the operator's open till; a transfer moves no cash.
                let till = request.kind == .transfer ? nil : try tills.openTillID(of: request.operatorID)
                let entry = try outbox.insert(request, reverses: reverses, till: till, at: now, verified: verified)
                if let supervisor = request.approvedBy, let overridden { try appendJournal(.approval(of: entry, over: overridden, by: supervisor), at: now) }
                try appendJournal(.enqueued(entry), at: now)
                try queueReceipts(for: entry, at: now)
                return entry
            }
        }
    }

    /// What is left under each limit for the amount screen: the online
    /// limits while the bank answered recently, or while nothing has failed
    /// since its last answer and it answers once more now; never a wait on a
    /// host already known to be unreachable.
    public func remainingLimits(kind: TransactionKind, account: IBAN) async throws(TellerError) -> RemainingLimits {
        let online = onlineEvidence.bankAnsweredRecently() ? true : (onlineEvidence.believedOnline() ? await onlineEvidence.proveOnline() : false)
        return try translating { try outbox.remaining(kind: kind, account: account, online: online, at: clock.now()) }
    }

    public func entries() throws(TellerError) -> [OutboxEntry] {
        try entries(recent: OutboxQueue.recentRows)
    }

    /// Every row still to settle and the newest `recent` rows, newest first.
    func entries(recent: Int) throws(TellerError) -> [OutboxEntry] {
        try translating { try outbox.entries(recent: recent) }
    }

    public func summary() throws(TellerError) -> QueueSummary {
        try translating { try outbox.summary() }
    }

    public func pendingDebits(for account: IBAN) throws(TellerError) -> [OutboxEntry] {
        try translating { try outbox.pendingDebits(for: account) }
    }

    public func pendingEntries(for account: IBAN) throws(TellerError) -> [OutboxEntry] {
        try translating { try outbox.pendingEntries(for: account) }
    }

    public func acknowledge(_ key: IdempotencyKey, by operatorID: OperatorID) throws(TellerError) {
        try translating { try outbox.acknowledge(key, by: operatorID, at: clock.now()) }
    }

    /// One row by key, or nil.
    public func entry(for key: IdempotencyKey) throws(TellerError) -> OutboxEntry? {
        try translating { try outbox.entry(for: key) }
    }

    /// Rows a person has to look at, oldest first, with the reason.
    public func needsReviewEntries() throws(TellerError) -> [OutboxEntry] {
        try translating { try outbox.needsReviewEntries() }
    }

    /// The terminal's calendar day of `date` (see ``OutboxStore/localDay(_:)``):
    /// the daily limit's bucket, and the day a journal export names.
    func localDay(_ date: Date) -> String {
        outbox.localDay(date)
    }

    /// The time a row is stamped with, and whether the clock was above its trusted floor.
    func stamp() -> (Date, verified: Bool) {
        let stamp = clock.stamp()
        return (stamp.date, verified: stamp.isVerified)
    }
}

extension TellerStore {
    /// The exact bytes that every attempt of this row sends to the host.
    public func frozenPayload(for key: IdempotencyKey) throws(TellerError) -> [UInt8]? {
        try translating { try outbox.frozenPayload(for: key) }
    }
}
