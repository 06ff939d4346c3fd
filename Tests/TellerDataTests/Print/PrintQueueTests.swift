@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

/// The print queue in a real teller.db: a payment's receipts commit with
/// its enqueue (or not at all), a job is `printing` on disk before a byte
/// goes out and `printed` with its journal entry, and a job a power cut
/// left `printing` prints again as a copy.
@Suite struct PrintQueueTests {
    let directory = TemporaryDirectory("teller-print-queue")
    let clock = FixedClock(Fixtures.noon)

    func makeStore(copies: Int = 1) throws -> TellerStore {
        let store = try TellerStore(dataDirectory: directory.path, limits: Fixtures.limits, clock: clock, zone: .utc)
        store.configurePrinting(receiptCopies: copies)
        return store
    }

    @Test func withoutAPrinterAPaymentQueuesNoReceipt() async throws {
        let store = try makeStore(copies: 0)
        _ = try await store.enqueue(Fixtures.deposit(1_000))
        #expect(try await store.waitingPrintJobCount() == 0)
    }

    @Test func aPaymentQueuesItsReceiptsTheSecondAsACopy() async throws {
        let store = try makeStore(copies: 2)
        let entry = try await Localization.with(RegionalFormat(language: .german)) {
            try await store.enqueue(Fixtures.deposit(1_000))
        }
        let jobs = try await store.waitingPrintJobs(limit: 10)
        try #require(jobs.count == 2)
        #expect(jobs.map(\.isCopy) == [false, true])
        #expect(jobs.allSatisfy { $0.document == .receipt && $0.subject == entry.key.rawValue && $0.state == .queued })
        #expect(jobs.allSatisfy { $0.language == .german && $0.requestedBy == Fixtures.operatorID })
    }

    /// A payment a limit refuses rolls back, and its receipts with it.
    @Test func aRefusedPaymentLeavesNoReceipt() async throws {
        let store = try makeStore()
        let refused = await thrownError(TellerError.self) { _ = try await store.enqueue(Fixtures.deposit(30_000_000)) }
        #expect(refused != nil)
        #expect(try await store.waitingPrintJobCount() == 0)
    }

    @Test func printedCommitsWithItsJournalEntry() async throws {
        let store = try makeStore()
        let entry = try await store.enqueue(Fixtures.deposit(1_000))
        let job = try #require(try await store.waitingPrintJobs(limit: 1).first)
        try await store.beginPrinting(job.id)
        #expect(try await store.printJobs().first?.state == .printing)
        try await store.finishPrinting(job.id)
        #expect(try await store.waitingPrintJobCount() == 0)
        let printed = try #require(try await store.printJobs().first)
        #expect(printed.state == .printed && printed.attempts == 1)
        let last = try #require(try await store.journalEntries(from: 1, limit: 100).last)
        #expect(last.kind == .print)
        #expect(last.payload == "{\"copy\":false,\"document\":\"receipt\",\"job\":\(job.id),\"subject\":\"\(entry.key.rawValue)\"}")
        #expect(try await store.verifyJournal() == .intact(entries: 2))
        // A job is recorded printed once.
        let again = await thrownError(TellerError.self) { try await store.finishPrinting(job.id) }
        #expect(again != nil)
    }

    /// A void slip for each copy of the receipt, but not on top of a receipt
    /// still queued: that one prints Voided when the spooler takes it, so a
    /// customer whose slip had not printed yet gets one void slip, not two.
    @Test(arguments: [1, 2])
    func aVoidQueuesTheVoidSlipsTheQueuedReceiptsDoNotAlreadyCover(copies: Int) async throws {
        let store = try makeStore(copies: copies)
        // Printed before the void: the void slips come on top.
        let printed = try await store.enqueue(Fixtures.deposit(1_000))
        for job in try await store.waitingPrintJobs(limit: 10) {
            try await store.beginPrinting(job.id)
            try await store.finishPrinting(job.id)
        }
        _ = try await store.void(printed.key, reason: .wrongAmount, by: Fixtures.operatorID)
        let slips = try await store.waitingPrintJobs(limit: 10)
        #expect(slips.count == copies, "\(slips)")
        #expect(slips.allSatisfy { $0.subject == printed.key.rawValue && $0.document == .receipt })
        #expect(slips.map(\.isCopy) == (0..<copies).map { $0 > 0 })
        for job in slips {
            try await store.beginPrinting(job.id)
            try await store.finishPrinting(job.id)
        }

        // Still queued when voided (no paper): those receipts are the void slips.
        let queued = try await store.enqueue(Fixtures.deposit(2_000))
        _ = try await store.void(queued.key, reason: .wrongAmount, by: Fixtures.operatorID)
        let waiting = try await store.waitingPrintJobs(limit: 10)
        #expect(waiting.count == copies, "one slip per copy, not two: \(waiting)")
        #expect(waiting.allSatisfy { $0.subject == queued.key.rawValue })
    }

    /// A power cut while the job was on its way: the store finds it
    /// `printing` when it opens, and the job prints again as a copy.
    @Test func aJobCutOffMidPrintComesBackAsACopy() async throws {
        do {
            let store = try makeStore()
            _ = try await store.enqueue(Fixtures.deposit(1_000))
            let job = try #require(try await store.waitingPrintJobs(limit: 1).first)
            #expect(!job.isCopy)
            try await store.beginPrinting(job.id)
        }
        let reopened = try makeStore()
        let job = try #require(try await reopened.waitingPrintJobs(limit: 1).first)
        #expect(job.state == .queued && job.isCopy)
    }

    @Test func aReprintIsACopyAndAnUnknownPaymentIsRefused() async throws {
        let store = try makeStore()
        let entry = try await store.enqueue(Fixtures.deposit(1_000))
        let reprint = try await store.reprintReceipt(entry.key, by: OperatorID("2002")!)
        #expect(reprint.isCopy && reprint.subject == entry.key.rawValue && reprint.requestedBy == OperatorID("2002")!)
        #expect(try await store.waitingPrintJobCount() == 2)
        let unknown = IdempotencyKey(rawValue: "3f2a9c4e-0b1d-4e8f-9a7b-5c6d7e8f9a0b")!
        let refused = await thrownError(TellerError.self) { _ = try await store.reprintReceipt(unknown, by: Fixtures.operatorID) }
        #expect(refused == .noSuchEntry(unknown))
    }

    @Test func aTillReportWaitsUnderItsTill() async throws {
        let store = try makeStore()
        let refused = await thrownError(TellerError.self) { _ = try await store.queueTillReport(tillID: 7, by: Fixtures.operatorID) }
        #expect(refused == .till(.noSuchTill(7)), "a report of a till never opened is refused, not queued to fail forever")
        let till = try await store.open(by: Fixtures.operatorID, count: TillCount(currency: .eur, pieces: [5000: 2]))
        let job = try await store.queueTillReport(tillID: till.id, by: Fixtures.operatorID)
        #expect(job.document == .tillReport && job.subject == String(till.id) && !job.isCopy)
        try await store.documentFailed(job.id, error: "no source")
        let waiting = try #require(try await store.waitingPrintJobs(limit: 5).first)
        #expect(waiting.state == .queued && waiting.lastError == "no source" && waiting.attempts == 1)
    }
}
