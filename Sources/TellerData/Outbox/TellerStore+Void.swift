import FoundationEssentials
import TellerCore
import SQLite

/// Voids and reversals: undoing a payment before it leaves, and after the
/// bank posted it.
extension TellerStore {
    /// Voids a payment still queued that never left the terminal, with its
    /// journal entry, in one transaction.
    ///
    /// Atomic against the sync engine: the engine claims a row
    /// (``claimForSending(_:)``) on this actor before its request goes to
    /// the host, and marks it `sending` while the request is on the wire;
    /// this runs on the same actor and refuses a row whose request left
    /// (``requestLeft(_:)``) and one that may have reached the bank before
    /// (`first_sent_at_ms`, which stays). The engine never sends a voided
    /// row: its claim reads the state.
    ///
    /// A void that meets an attempt still connecting waits for it, up to
    /// ``voidWaitsForAttempt``: to a bank that cannot be reached the
    /// attempt ends with nothing sent (a refused connection) and the row
    /// is voided; otherwise the refusal says where the payment went (posted,
    /// with the bank's reference, or possibly sent). Once the request left
    /// it is refused as being sent; an attempt still connecting past that
    /// wait (a bank whose address answers nothing) is refused as
    /// `stillConnecting`, and the clerk may try again in a moment.
    ///
    /// With a printer, the void slip goes in the same transaction: the
    /// payment's receipt as it now stands (Voided, with the reason), as
    /// many as a payment prints (`receipt_copies`), so the customer takes
    /// home paper that says the payment was voided. A receipt of the payment
    /// still queued (the printer out of paper, the bank's answer awaited)
    /// prints Voided itself when the spooler takes it (it makes the
    /// document after the job is marked printing), so it counts towards
    /// those copies: the customer never gets two void slips for one.
    public func void(_ key: IdempotencyKey, reason: VoidReason, by operatorID: OperatorID) async throws(TellerError) -> OutboxEntry {
        do throws(TellerError) {
            return try voidNow(key, reason: reason, by: operatorID)
        } catch .voidRefused(.sending) {
            guard let id = try? outbox.entry(for: key)?.id else { throw .voidRefused(.sending) }
            guard await attemptStopsConnecting(on: id) else { throw .voidRefused(.stillConnecting) }
            return try voidNow(key, reason: reason, by: operatorID)
        }
    }

    /// Waits, up to ``voidWaitsForAttempt``, while the sync engine's attempt
    /// on row `id` is connecting (it ends on this actor, so sleeping lets
    /// it); only the engine's claim in memory is read meanwhile.
    /// - Returns: false when it is still connecting after the wait.
    private func attemptStopsConnecting(on id: Int64) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + voidWaitsForAttempt
        while ledger.attempt(on: id) == .connecting {
            guard clock.now < deadline, (try? await Task.sleep(for: .milliseconds(10))) != nil else { return false }
        }
        return true
    }

    /// The void itself, refused at once while the engine holds the row.
    private func voidNow(_ key: IdempotencyKey, reason: VoidReason, by operatorID: OperatorID) throws(TellerError) -> OutboxEntry {
        let voided = try translating {
            try database.inTransaction(.immediate) {
                let now = clock.now()
                let entry = try outbox.void(key, reason: reason, at: now, isClaimed: { ledger.attempt(on: $0) != nil })
                try appendJournal(.void(entry, reason: reason, by: operatorID), at: now)
                var voided = entry
                voided.state = .voided(reason: reason)
                let waiting = try printQueue.queuedReceiptCount(of: key)
                try printQueue.queueReceipts(for: voided, copies: max(0, receiptCopies.withLock { $0 } - waiting), at: now)
                return voided
            }
        }
        if receiptCopies.withLock({ $0 }) > 0 { for observer in printObservers { observer() } }
        return voided
    }

    /// Queues the payment that undoes the posted payment `key`: a deposit
    /// by a withdrawal from the same account, a withdrawal by a deposit, a
    /// transfer by a transfer back; entered by `operatorID`, referring to
    /// `key` (stored in `reverses` and sent to the bank), under the limits
    /// of any payment, with a `reversal` journal entry, in one transaction.
    public func reverse(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) -> OutboxEntry {
        try await enqueueChecked { () throws(TellerError) in
            let original = try translating { try outbox.reversible(key) }
            return (try Self.reversing(original.request, by: operatorID), key)
        }
    }

    /// The request that undoes `request`.
    static func reversing(_ request: TransactionRequest, by operatorID: OperatorID) throws(TellerError) -> TransactionRequest {
        do throws(TransactionRuleError) {
            switch request.kind {
            case .deposit:
                return try TransactionRequest(kind: .withdrawal, account: request.account, amount: request.amount, operatorID: operatorID)
            case .withdrawal:
                return try TransactionRequest(kind: .deposit, account: request.account, amount: request.amount, operatorID: operatorID)
            case .transfer:
                guard let counterparty = request.counterparty else { throw TransactionRuleError.missingRecipient }
                return try TransactionRequest(kind: .transfer, account: counterparty, counterparty: request.account, amount: request.amount,
                                              operatorID: operatorID)
            }
        } catch {
            throw .rule(error)
        }
    }
}
