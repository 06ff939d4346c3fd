@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite

/// The till and supervisor approvals in a real teller.db: the cash position
/// read from the outbox, closing over and short against the tolerance, the
/// journal entries and the host's till events in the same transaction.
@Suite struct TillStoreTests {
    let directory = TemporaryDirectory("teller-till")
    let clock = FixedClock(Fixtures.noon)
    let supervisor = OperatorID("2001")!

    func makeStore(tolerance: Int64 = 0) throws -> TellerStore {
        let settings = TillSettings(denominations: DenominationTable.standard(for: .eur)!, tolerance: Fixtures.eur(tolerance))
        return try TellerStore(dataDirectory: directory.path, limits: Fixtures.limits, till: settings, clock: clock, zone: .utc)
    }

    /// 2 x 50.00 and 10 x 1.00: a float of 110.00.
    var float: TillCount { TillCount(currency: .eur, pieces: [5000: 2, 100: 10]) }

    /// The first `columns` columns of every row, as text, through another connection.
    func rows(_ sql: String, columns: Int32) throws -> [[String]] {
        let database = try Database(path: directory.file(TellerStore.fileName))
        return try database.query(sql) { (row: Statement) throws(SQLiteError) -> [String] in
            (0..<columns).map { row.optionalText($0) ?? "NULL" }
        }
    }

    @Test func cashPaymentsMoveThePositionAndTransfersAndVoidsDoNot() async throws {
        let store = try makeStore()
        try await store.saveSnapshot(AccountSnapshot(iban: Fixtures.account, holder: "Ada Lovelace", balance: Fixtures.eur(30_000),
                                                     available: Fixtures.eur(25_000), asOf: clock.now()))
        let opened = try await store.open(by: Fixtures.operatorID, count: float)
        #expect(opened.position == Fixtures.eur(11_000))
        _ = try await store.enqueue(Fixtures.deposit(2_550))
        _ = try await store.enqueue(Fixtures.withdrawal(1_000))
        let voided = try await store.enqueue(Fixtures.deposit(9_900))
        _ = try await store.void(voided.key, reason: try #require(VoidReason.allCases.first), by: Fixtures.operatorID)
        _ = try await store.enqueue(try TransactionRequest(kind: .transfer, account: Fixtures.account, counterparty: Fixtures.recipient,
                                                           amount: Fixtures.eur(500), operatorID: Fixtures.operatorID))
        let till = try #require(try await store.openTill(of: Fixtures.operatorID))
        #expect(till.cashIn == Fixtures.eur(2_550))
        #expect(till.cashOut == Fixtures.eur(1_000))
        #expect(till.cashPayments == 2)
        #expect(till.position == Fixtures.eur(12_550))
        // The voided deposit is listed, for the report; nothing is to settle with the bank.
        #expect(till.voided.map(\.key) == [voided.key])
        #expect(till.toSettle.isEmpty)
        // Another operator's payments are not in this drawer.
        let other = OperatorID("1002")!
        _ = try await store.enqueue(try TransactionRequest(kind: .deposit, account: Fixtures.account, amount: Fixtures.eur(700), operatorID: other))
        #expect(try await store.openTill(of: Fixtures.operatorID)?.position == Fixtures.eur(12_550))
    }

    @Test func oneOpenTillPerOperator() async throws {
        let store = try makeStore()
        _ = try await store.open(by: Fixtures.operatorID, count: float)
        await #expect(throws: TellerError.till(.alreadyOpen)) { try await store.open(by: Fixtures.operatorID, count: float) }
        await #expect(throws: TellerError.till(.notOpen)) {
            try await store.close(by: OperatorID("1002")!, count: float, approvedBy: nil)
        }
    }

    @Test func aCountInAnotherCurrencyOrDenominationIsRefused() async throws {
        let store = try makeStore()
        await #expect(throws: TellerError.self) { try await store.open(by: Fixtures.operatorID, count: TillCount(currency: .usd, pieces: [100: 1])) }
        let refusal = await thrownError(TellerError.self) {
            _ = try await store.open(by: Fixtures.operatorID, count: TillCount(currency: .eur, pieces: [300: 1]))
        }
        #expect(refusal?.description.contains("300 is not a denomination of EUR") == true)
        #expect(try await store.openTill(of: Fixtures.operatorID) == nil)
    }

    @Test func aCloseWithinTheToleranceNeedsNobody() async throws {
        let store = try makeStore(tolerance: 200)
        _ = try await store.open(by: Fixtures.operatorID, count: float)
        _ = try await store.enqueue(Fixtures.deposit(1_000))
        // 120.00 expected; 118.00 counted: 2.00 short, within 2.00.
        let closed = try await store.close(by: Fixtures.operatorID, count: TillCount(currency: .eur, pieces: [5000: 2, 100: 18]), approvedBy: nil)
        let closing = try #require(closed.closing)
        #expect(closing.expected == Fixtures.eur(12_000))
        #expect(closing.counted.total == Fixtures.eur(11_800))
        #expect(closing.overShort == Fixtures.eur(-200))
        #expect(closing.approvedBy == nil)
        #expect(try await store.openTill(of: Fixtures.operatorID) == nil)
        // A payment after the close moves no till.
        _ = try await store.enqueue(Fixtures.deposit(500))
        #expect(try await store.till(closed.id)?.position == Fixtures.eur(12_000))
    }

    @Test func aCloseBeyondTheToleranceWaitsForASupervisorAndJournalsBoth() async throws {
        let store = try makeStore(tolerance: 100)
        _ = try await store.open(by: Fixtures.operatorID, count: float)
        let short = TillCount(currency: .eur, pieces: [5000: 2, 100: 8])
        await #expect(throws: TellerError.till(.needsApproval(overShort: Fixtures.eur(-200), tolerance: Fixtures.eur(100)))) {
            try await store.close(by: Fixtures.operatorID, count: short, approvedBy: nil)
        }
        await #expect(throws: TellerError.approval(.ownTransaction)) {
            try await store.close(by: Fixtures.operatorID, count: short, approvedBy: Fixtures.operatorID)
        }
        // Refused closes changed nothing.
        #expect(try await store.openTill(of: Fixtures.operatorID) != nil)
        let closed = try await store.close(by: Fixtures.operatorID, count: short, approvedBy: supervisor)
        #expect(closed.closing?.approvedBy == supervisor)

        let journal = try await store.journalEntries(from: 1, limit: 10)
        #expect(journal.map(\.kind) == [.tillOpened, .supervisorApproval, .tillClosed])
        #expect(journal[1].operatorID == Fixtures.operatorID)
        #expect(journal[1].supervisorID == supervisor)
        #expect(journal[2].supervisorID == supervisor)
        #expect(journal[2].payload.contains(#""over_short":-200"#))
        #expect(try await store.verifyJournal() == .intact(entries: 3))

        let events = try rows("SELECT kind, state, till_id FROM till_events ORDER BY id", columns: 3)
        #expect(events == [["opened", "queued", "\(closed.id)"], ["closed", "queued", "\(closed.id)"]])
        let body = try rows("SELECT CAST(payload AS TEXT) FROM till_events WHERE kind = 'closed'", columns: 1)[0][0]
        #expect(body.contains(#""approved_by":"2001""#))
        #expect(body.contains(#""expected":11000"#))
        #expect(body.contains(#""over_short":-200"#))
        #expect(body.contains(#""total":10800"#))
    }

    @Test func aSupervisorLiftsTheCounterLimitsButNeverTheOfflineOnes() async throws {
        let store = try makeStore()
        let limits = Fixtures.limits
        let over = limits.perTransaction.minorUnits + 100
        await #expect(throws: TellerError.self) { try await store.enqueue(Fixtures.deposit(over)) }
        // Offline (no host evidence), the offline per-transaction limit still refuses an approved payment.
        let approved = try Fixtures.deposit(over).approved(by: supervisor)
        let refusal = await thrownError(TellerError.self) { _ = try await store.enqueue(approved) }
        #expect(refusal == .limit(.offlinePerTransaction(limit: limits.perOfflineTransaction)), "\(String(describing: refusal))")
        #expect(LimitViolation.offlinePerTransaction(limit: limits.perOfflineTransaction).isOverridable == false)
        #expect(LimitViolation.perTransaction(limit: limits.perTransaction).isOverridable)
        #expect(LimitViolation.offlineQueuedTotal(limit: limits.offlineQueuedTotal, remaining: .zero(.eur)).isOverridable == false)
        #expect(throws: TransactionRuleError.approvedByOperator) { try Fixtures.deposit(100).approved(by: Fixtures.operatorID) }
    }
}
