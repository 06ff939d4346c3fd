import TellerConfiguration
import SystemCalls
import TellerCore

/// The outbox as the terminal uses it. The operator reads a storage failure
/// in plain words; its technical detail (file, SQLite code, SQL) goes to the
/// log and to diagnostics here. With `log_commits = true` it also writes one
/// line per committed transaction, only after ``OutboxPort/enqueue(_:)`` has
/// returned, that is after the row is durably on disk: the VM's power-cut
/// test (deploy/vm/power_cut.py, run by `teller-vm --power-cut`) reads these
/// lines from the serial console as the list of transactions the terminal
/// acknowledged.
struct LoggingOutbox: OutboxPort {
    let outbox: any OutboxPort
    let logCommits: Bool
    let failures: StorageFailureRecord

    func enqueue(_ request: TransactionRequest) async throws(TellerError) -> OutboxEntry {
        let entry = try await logged { () async throws(TellerError) in try await outbox.enqueue(request) }
        logCommit(entry)
        return entry
    }

    /// With `log_commits`, what the receipt acknowledges: key, kind, amount, account, counterparty.
    private func logCommit(_ entry: OutboxEntry) {
        guard logCommits else { return }
        Log.info("outbox: committed \(entry.key.rawValue) \(entry.request.kind.rawValue) \(entry.request.amount) "
                 + "\(entry.request.account.electronic) \(entry.request.counterparty?.electronic ?? "-")")
    }

    func remainingLimits(kind: TransactionKind, account: IBAN) async throws(TellerError) -> RemainingLimits {
        try await logged { () async throws(TellerError) in try await outbox.remainingLimits(kind: kind, account: account) }
    }

    func entries() async throws(TellerError) -> [OutboxEntry] {
        try await logged { () async throws(TellerError) in try await outbox.entries() }
    }

    func summary() async throws(TellerError) -> QueueSummary {
        try await logged { () async throws(TellerError) in try await outbox.summary() }
    }

    func pendingDebits(for account: IBAN) async throws(TellerError) -> [OutboxEntry] {
        try await logged { () async throws(TellerError) in try await outbox.pendingDebits(for: account) }
    }

    func pendingEntries(for account: IBAN) async throws(TellerError) -> [OutboxEntry] {
        try await logged { () async throws(TellerError) in try await outbox.pendingEntries(for: account) }
    }

    func acknowledge(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) {
        try await logged { () async throws(TellerError) in try await outbox.acknowledge(key, by: operatorID) }
    }

    func void(_ key: IdempotencyKey, reason: VoidReason, by operatorID: OperatorID) async throws(TellerError) -> OutboxEntry {
        try await logged { () async throws(TellerError) in try await outbox.void(key, reason: reason, by: operatorID) }
    }

    func reverse(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) -> OutboxEntry {
        // A reversal is a payment like any other: its commit is acknowledged the same way.
        let entry = try await logged { () async throws(TellerError) in try await outbox.reverse(key, by: operatorID) }
        logCommit(entry)
        return entry
    }

    private func logged<T>(_ operation: () async throws(TellerError) -> T) async throws(TellerError) -> T {
        do {
            return try await operation()
        } catch {
            if case .storage(let failure) = error {
                Log.error("storage: \(failure.kind.rawValue): \(failure.detail)")
                await failures.record(failure)
            }
            throw error
        }
    }
}

/// The last storage failure, for the diagnostics screen.
actor StorageFailureRecord {
    private(set) var last: StorageFailure?
    func record(_ failure: StorageFailure) { last = failure }
}
