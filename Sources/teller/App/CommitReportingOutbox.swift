import TellerCore

/// The outbox with one log line per committed transaction, written only
/// after ``OutboxPort/enqueue(_:)`` has returned, that is after
/// the row is durably on disk. Opt-in with `log_commits = true`: the
/// power-cut test (deploy/vm/power-cut) reads these lines from the serial
/// console as the list of transactions the terminal acknowledged.
struct CommitReportingOutbox: OutboxPort {
    let outbox: any OutboxPort

    func enqueue(_ request: TransactionRequest) async throws(TellerError) -> OutboxEntry {
        let entry = try await outbox.enqueue(request)
        Log.info("outbox: committed \(entry.key.rawValue) \(entry.request.kind.rawValue) \(entry.request.amount)")
        return entry
    }

    func remainingLimits(kind: TransactionKind, account: IBAN) async throws(TellerError) -> RemainingLimits {
        try await outbox.remainingLimits(kind: kind, account: account)
    }

    func entries() async throws(TellerError) -> [OutboxEntry] { try await outbox.entries() }
    func summary() async throws(TellerError) -> QueueSummary { try await outbox.summary() }
    func pendingDebits(for account: IBAN) async throws(TellerError) -> [OutboxEntry] { try await outbox.pendingDebits(for: account) }
    func pendingEntries(for account: IBAN) async throws(TellerError) -> [OutboxEntry] { try await outbox.pendingEntries(for: account) }

    func acknowledge(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) {
        try await outbox.acknowledge(key, by: operatorID)
    }
}
