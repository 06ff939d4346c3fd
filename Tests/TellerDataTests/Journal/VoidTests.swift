@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import HostTransport

/// Voids and reversals in a real teller.db, without a host: which rows a
/// void takes and which it refuses, and what a reversal queues.
@Suite struct VoidTests {
    let directory = TemporaryDirectory("teller-void")
    let clock = FixedClock(Fixtures.noon)
    static let supervisor = OperatorID("2002")!

    func makeStore() throws -> TellerStore {
        try TellerStore(dataDirectory: directory.path, limits: Fixtures.limits, clock: clock, zone: .utc)
    }

    /// Why `store` refuses to void `key`, or nil when it voids it. (A
    /// function, so no closure with `try` sits inside `#expect`, which Swift
    /// 6.0's macro expansion does not take.)
    func voidRefusal(_ store: TellerStore, _ key: IdempotencyKey, reason: VoidReason = .duplicate) async -> VoidRefusal? {
        let error = await thrownError(TellerError.self) { _ = try await store.void(key, reason: reason, by: Fixtures.operatorID) }
        guard case .voidRefused(let refusal) = error else { return nil }
        return refusal
    }

    @Test func aQueuedRowIsVoidedWithItsJournalEntryAndLeavesTheTotals() async throws {
        let store = try makeStore()
        let kept = try await store.enqueue(Fixtures.deposit(1_000))
        let wrong = try await store.enqueue(Fixtures.deposit(19_000))
        let voided = try await store.void(wrong.key, reason: .wrongAmount, by: Self.supervisor)
        #expect(voided.state == .voided(reason: .wrongAmount))
        #expect(try await store.entry(for: wrong.key)?.state == .voided(reason: .wrongAmount))
        #expect(try await store.entry(for: kept.key)?.state == .queued)
        let summary = try await store.summary()
        #expect(summary.countsByState[.voided] == 1)
        #expect(summary.pendingCount == 1)
        #expect(summary.pendingByCurrency == [.eur: Fixtures.eur(1_000)])
        // Neither the offline queue total nor the day counts it: 49,000.00 of 50,000.00 offline are free again.
        let remaining = try await store.remainingLimits(kind: .deposit, account: Fixtures.account)
        #expect(remaining.offlineQueue == Fixtures.eur(49_000))
        #expect(remaining.today == Fixtures.eur(299_000))
        let journal = try await store.journalEntries(from: 1, limit: 10)
        #expect(journal.map(\.kind) == [.paymentEnqueued, .paymentEnqueued, .void])
        #expect(journal[2].operatorID == Self.supervisor)
        #expect(journal[2].payload.contains(#""reason":"wrong_amount""#) && journal[2].payload.contains(wrong.key.rawValue), "\(journal[2].payload)")
        #expect(try await store.verifyJournal() == .intact(entries: 3))
        // Nothing sends it: it is not queued.
        #expect(try await store.nextToSend()?.entry.key == kept.key)
        #expect(try await store.nextToSend(after: kept.id) == nil)
    }

    /// With a printer, the void queues the void slip in its own transaction:
    /// the payment's receipt as it now stands, as many as a payment prints;
    /// without one, nothing. (Its receipts printed first; one still queued
    /// is the void slip itself: PrintQueueTests.)
    @Test(arguments: [0, 1, 2]) func aVoidQueuesItsSlipsWithThePrinter(_ copies: Int) async throws {
        let store = try makeStore()
        store.configurePrinting(receiptCopies: copies)
        let wrong = try await store.enqueue(Fixtures.deposit(19_000))
        let before = try await store.waitingPrintJobs(limit: 10)
        #expect(before.count == copies)
        for job in before {
            try await store.beginPrinting(job.id)
            try await store.finishPrinting(job.id)
        }
        _ = try await store.void(wrong.key, reason: .wrongAmount, by: Self.supervisor)
        let slips = try await store.waitingPrintJobs(limit: 10).filter { job in !before.contains { $0.id == job.id } }
        #expect(slips.count == copies)
        #expect(slips.allSatisfy { $0.document == .receipt && $0.subject == wrong.key.rawValue })
        #expect(slips.map(\.isCopy) == (0..<copies).map { $0 > 0 }, "the first is the customer's, the second a copy")
    }

    @Test func everyRowThatIsNotSimplyQueuedIsRefusedWithItsReason() async throws {
        let store = try makeStore()
        var rows: [OutboxEntry] = []
        for amount in 1...7 { rows.append(try await store.enqueue(Fixtures.deposit(Int64(amount) * 100))) }
        try await store.withDatabase { database in
            try database.run("UPDATE outbox SET state = 'sending' WHERE id = ?", [.integer(rows[0].id)])
            try database.run("UPDATE outbox SET state = 'confirmed', host_reference = 'H20261129-0000042' WHERE id = ?", [.integer(rows[1].id)])
            try database.run("UPDATE outbox SET state = 'rejected', reason = 'account_blocked' WHERE id = ?", [.integer(rows[2].id)])
            try database.run("UPDATE outbox SET state = 'needsReview', reason = 'mismatch' WHERE id = ?", [.integer(rows[3].id)])
        }
        _ = try await store.void(rows[4].key, reason: .duplicate, by: Fixtures.operatorID)
        // Queued, but the engine has taken it to send and its request left (its `sending` commit not made yet).
        #expect(try await store.claimForSending(rows[5].id))
        await store.requestLeft(rows[5].id)
        // Queued again after an attempt whose request may have reached the bank.
        #expect(try await store.claimForSending(rows[6].id))
        try await store.scheduleRetry(rows[6].id, at: clock.now(), error: "host timed out", problem: .timeout, waited: 0, mayHaveReachedHost: true)

        #expect(await voidRefusal(store, rows[0].key, reason: .duplicate) == .sending)
        #expect(await voidRefusal(store, rows[1].key, reason: .duplicate)
                == .alreadySent(reference: "H20261129-0000042"))
        #expect(await voidRefusal(store, rows[2].key, reason: .duplicate) == .rejected)
        #expect(await voidRefusal(store, rows[3].key, reason: .duplicate) == .needsReview)
        #expect(await voidRefusal(store, rows[4].key, reason: .duplicate) == .alreadyVoided)
        #expect(await voidRefusal(store, rows[5].key, reason: .duplicate) == .sending)
        #expect(await voidRefusal(store, rows[6].key, reason: .duplicate) == .sentBefore)
        let missing = IdempotencyKey.random()
        let noSuchRow = await thrownError(TellerError.self) { _ = try await store.void(missing, reason: .duplicate, by: Fixtures.operatorID) }
        #expect(noSuchRow == .noSuchEntry(missing))
        // No refusal changed a row or wrote an entry: 7 enqueues and the one void.
        #expect(try await store.journalEntries(from: 1, limit: 20).count == 8)
        #expect(try await store.entry(for: rows[5].key)?.state == .queued)
    }

    /// An attempt that proved nothing left the terminal (no connection was
    /// made) ends the claim and leaves the row voidable.
    @Test func aRowWhoseAttemptNeverReachedTheBankCanStillBeVoided() async throws {
        let store = try makeStore()
        let entry = try await store.enqueue(Fixtures.deposit(1_000))
        #expect(try await store.claimForSending(entry.id))
        let refused = HostError.offline("Could not connect to server (curl 7)")
        #expect(!refused.mayHaveBeenPosted)
        #expect(HostError.offline("Recv failure: Connection reset by peer (curl 56)").mayHaveBeenPosted)
        try await store.scheduleRetry(entry.id, at: clock.now(), error: refused.description, problem: .offline, waited: 0,
                                      mayHaveReachedHost: refused.mayHaveBeenPosted)
        #expect(try await store.void(entry.key, reason: .customerCancelled, by: Fixtures.operatorID).state == .voided(reason: .customerCancelled))
        // A voided row cannot be claimed: the engine skips it.
        #expect(try await store.claimForSending(entry.id) == false)
    }

    /// How the engine's attempt ends while a void waits for it.
    enum AttemptEnd: CaseIterable { case nothingSent, maybeSent, posted }

    /// A void that meets the engine's attempt before its request left
    /// waits for it: to a bank that cannot be reached the attempt ends with
    /// nothing sent and the row is voided; one that may have reached the
    /// bank, or was posted, is refused saying so.
    @Test(arguments: AttemptEnd.allCases)
    func aVoidWaitsOutAnAttemptThatHasNotSentItsRequest(_ end: AttemptEnd) async throws {
        let store = try makeStore()
        let entry = try await store.enqueue(Fixtures.deposit(1_000))
        #expect(try await store.claimForSending(entry.id))
        try await store.markSending(entry.id)
        // The void meets the attempt: refused at once, it would say `sending` in every case below.
        let void = Task { await thrownError(TellerError.self) { _ = try await store.void(entry.key, reason: .duplicate, by: Fixtures.operatorID) } }
        try await Task.sleep(for: .milliseconds(300))
        let reference = "H20261129-0000007"
        switch end {
        case .nothingSent:
            try await store.scheduleRetry(entry.id, at: clock.now(), error: "Could not connect to server (curl 7)", problem: .offline, waited: 0,
                                          mayHaveReachedHost: false)
        case .maybeSent:
            try await store.scheduleRetry(entry.id, at: clock.now(), error: "host timed out", problem: .timeout, waited: 0, mayHaveReachedHost: true)
        case .posted:
            try await store.record(.posted(reference: reference, replayed: false), for: entry.id)
        }
        let error = await void.value
        let state = try #require(try await store.entry(for: entry.key)?.state)
        switch end {
        case .nothingSent:
            #expect(error == nil)
            #expect(state == .voided(reason: .duplicate))
        case .maybeSent:
            #expect(error == .voidRefused(.sentBefore))
            #expect(state == .queued)
        case .posted:
            #expect(error == .voidRefused(.alreadySent(reference: reference)))
            #expect(state == .confirmed(reference: reference))
        }
    }

    /// The wait is bounded: one whose request left is refused at once as
    /// being sent; an attempt still connecting when the wait runs out is
    /// refused as still connecting (nothing left: the clerk may try again).
    @Test func aVoidIsRefusedAsSendingOnceTheRequestLeftOrAsStillConnectingWhenTheWaitRanOut() async throws {
        let store = try makeStore()
        let connecting = try await store.enqueue(Fixtures.deposit(1_000))
        let left = try await store.enqueue(Fixtures.deposit(2_000))
        #expect(try await store.claimForSending(connecting.id))
        #expect(try await store.claimForSending(left.id))
        await store.requestLeft(left.id)
        let clock = ContinuousClock()

        await store.setVoidWaitsForAttempt(.seconds(60))
        let start = clock.now
        #expect(await voidRefusal(store, left.key) == .sending)
        #expect(clock.now - start < .seconds(30), "waited for an attempt whose request left")

        await store.setVoidWaitsForAttempt(.milliseconds(400))
        let waited = clock.now
        #expect(await voidRefusal(store, connecting.key) == .stillConnecting)
        #expect(clock.now - waited >= .milliseconds(400))
        #expect(try await store.entry(for: connecting.key)?.state == .queued)
    }

    /// A row left `sending` by a crash may have reached the bank: the next
    /// open queues it again, and it can no longer be voided.
    @Test func aRowInterruptedWhileSendingCanNoLongerBeVoided() async throws {
        let entry: OutboxEntry
        do {
            let store = try makeStore()
            entry = try await store.enqueue(Fixtures.deposit(1_000))
            try await store.withDatabase { try $0.run("UPDATE outbox SET state = 'sending' WHERE id = ?", [.integer(entry.id)]) }
        }
        let reopened = try makeStore()
        #expect(try await reopened.entry(for: entry.key)?.state == .queued)
        #expect(await voidRefusal(reopened, entry.key, reason: .duplicate) == .sentBefore)
    }

    @Test func aVoidWhoseEntryCannotBeWrittenLeavesTheRowQueued() async throws {
        let store = try makeStore()
        let entry = try await store.enqueue(Fixtures.deposit(1_000))
        try await store.withDatabase {
            try $0.execute("CREATE TEMP TRIGGER journal_fails BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'disk gone'); END")
        }
        let error = await thrownError(TellerError.self) { _ = try await store.void(entry.key, reason: .duplicate, by: Fixtures.operatorID) }
        #expect(error.map { if case .storage = $0 { true } else { false } } == true, "\(String(describing: error))")
        #expect(try await store.entry(for: entry.key)?.state == .queued)
        #expect(try await store.summary().pendingCount == 1)
    }

    @Test func aPostedPaymentIsReversedByANewPaymentThatRefersToIt() async throws {
        // Online: a withdrawal offline needs a known balance, which this test has no host to give.
        let store = try TellerStore(dataDirectory: directory.path, limits: Fixtures.limits, clock: clock, zone: .utc, online: FakeOnlineEvidence(online: true))
        let deposit = try await store.enqueue(Fixtures.deposit(2_500))
        let transfer = try await store.enqueue(try TransactionRequest(kind: .transfer, account: Fixtures.account, counterparty: Fixtures.recipient,
                                                                      amount: Fixtures.eur(700), operatorID: Fixtures.operatorID))
        for (row, reference) in [(deposit, "H20261129-0000001"), (transfer, "H20261129-0000002")] {
            #expect(try await store.claimForSending(row.id))
            try await store.markSending(row.id)
            try await store.record(.posted(reference: reference, replayed: false), for: row.id)
        }
        let queuedRow = try await store.enqueue(Fixtures.deposit(300))
        #expect(await voidRefusal(store, deposit.key, reason: .wrongAmount)
                == .alreadySent(reference: "H20261129-0000001"))

        let reversal = try await store.reverse(deposit.key, by: Self.supervisor)
        #expect(reversal.reverses == deposit.key)
        #expect(reversal.request.kind == .withdrawal && reversal.request.account == Fixtures.account && reversal.request.amount == Fixtures.eur(2_500))
        #expect(reversal.request.operatorID == Self.supervisor)
        #expect(try await store.entry(for: reversal.key)?.reverses == deposit.key)
        let wire = try JSONDecoder().decode(WireTransaction.self, from: Data(try #require(try await store.frozenPayload(for: reversal.key))))
        #expect(wire.reverses == deposit.key.rawValue)
        let back = try await store.reverse(transfer.key, by: Fixtures.operatorID)
        #expect(back.request.kind == .transfer && back.request.account == Fixtures.recipient && back.request.counterparty == Fixtures.account)

        func reversalRefusal(_ key: IdempotencyKey) async -> ReversalRefusal? {
            guard case .reversalRefused(let refusal) = await thrownError(TellerError.self, { _ = try await store.reverse(key, by: Fixtures.operatorID) })
            else { return nil }
            return refusal
        }
        #expect(await reversalRefusal(deposit.key) == .alreadyReversed(by: reversal.key))
        #expect(await reversalRefusal(queuedRow.key) == .notPosted(.queued))
        // The reversal itself is queued, not posted; once posted it still cannot be reversed.
        #expect(await reversalRefusal(reversal.key) == .notPosted(.queued))
        try await store.withDatabase { try $0.run("UPDATE outbox SET state = 'confirmed', host_reference = 'H1' WHERE id = ?", [.integer(reversal.id)]) }
        #expect(await reversalRefusal(reversal.key) == .isReversal)
        // A voided reversal frees its original for another.
        _ = try await store.void(back.key, reason: .duplicate, by: Fixtures.operatorID)
        #expect(try await store.reverse(transfer.key, by: Fixtures.operatorID).reverses == transfer.key)

        let kinds = try await store.journalEntries(from: 1, limit: 20).map(\.kind)
        #expect(kinds == [.paymentEnqueued, .paymentEnqueued, .paymentConfirmed, .paymentConfirmed, .paymentEnqueued,
                          .reversal, .reversal, .void, .reversal])
        #expect(try await store.verifyJournal() == .intact(entries: 9))
    }
}
