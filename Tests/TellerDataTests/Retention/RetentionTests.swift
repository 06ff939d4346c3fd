@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite
import ProcessTestSupport

/// Retention on real teller.db files holding history written through the
/// store's own write path (``SyntheticHistory``): what the bank settled
/// goes after `retention_days`, nothing it has not answered ever does, and
/// the journal stays a verifiable chain across it.
@Suite(.tags(.realProcess, .slow)) struct RetentionTests {
    let directory = TemporaryDirectory("teller-retention")
    /// 2026-01-01 00:00 UTC.
    let clock = SyntheticHistory.Clock(Date(timeIntervalSince1970: 1_767_225_600))

    func makeStore() throws -> TellerStore {
        let store = try TellerStore(dataDirectory: directory.path, limits: try SyntheticHistory.limits, clock: clock, zone: .utc)
        store.configurePrinting(receiptCopies: 1)
        return store
    }

    /// Runs batches until one removes nothing, giving pages back after each, as the terminal's pruner does.
    @discardableResult
    static func pass(_ store: TellerStore, days: Int = 90, batch: Int = 200) async throws -> (removed: RetentionReport.Counts, last: PruneStep) {
        var removed = RetentionReport.Counts()
        while true {
            let step = try await store.pruneStep(retentionDays: days, batch: batch)
            removed = removed + step.removed
            try await store.reclaimSpace(pages: 256)
            if step.isDone { return (removed, step) }
        }
    }

    static func count(_ store: TellerStore, _ table: String) async throws -> Int64 {
        try await store.withDatabase { try $0.queryInt64("SELECT count(*) FROM \(table)") ?? 0 }
    }

    /// Two years at 10 payments a day, pruned every night under 90 days:
    /// the file stops growing once 90 days are kept, and what is kept is
    /// the last 90 days.
    @Test func twoYearsUnderNinetyDaysStayBounded() async throws {
        let store = try makeStore()
        let history = try SyntheticHistory(store: store, clock: clock)
        var pagesAt: [Int: Int] = [:]
        for day in 1...730 {
            _ = try await history.write(days: 1, paymentsPerDay: 10)
            try await Self.pass(store)
            if [120, 365, 730].contains(day) { pagesAt[day] = try await store.fileSize().pages }
        }
        let size = try await store.fileSize()
        let report = try await store.retentionReport()
        // 91 days of rows are kept (today and the 90 before it, by whole local days).
        let kept = try await Self.count(store, "outbox")
        #expect((90 * 10)...(92 * 10) ~= kept, "kept \(kept) outbox rows")
        #expect(report.pruned.outboxRows == 730 * 10 - Int(kept))
        #expect(try await Self.count(store, "tills") <= 92)
        #expect(try await Self.count(store, "print_jobs") <= 92 * 10)
        #expect(report.pruned.journalEntries > 0 && report.heldBack == nil)
        let at120 = try #require(pagesAt[120]), at365 = try #require(pagesAt[365]), at730 = try #require(pagesAt[730])
        #expect(at365 <= at120 + at120 / 10 && at730 <= at120 + at120 / 10,
                "pages at day 120, 365, 730: \(at120), \(at365), \(at730) of \(size.pageSize) bytes")
        print("retention: 730 days x 10 payments under 90 days: \(at120) / \(at365) / \(at730) pages at days 120 / 365 / 730 (\(size.pageSize) B each, \(size.free) free); pruned \(report.pruned)")
        let verdict = try await store.verifyJournal()
        guard case .intact(_, let carry) = verdict else { Issue.record("journal after pruning: \(verdict)"); return }
        #expect(try #require(carry).pruned == Int64(report.pruned.journalEntries))
    }

    /// 120 days with the host down: nothing was answered, so nothing at
    /// all may go, however old; the journal says what holds it back.
    @Test func withTheHostDownNothingIsPruned() async throws {
        let store = try makeStore()
        let history = try SyntheticHistory(store: store, clock: clock)
        let written = try await history.write(days: 120, paymentsPerDay: 20, host: .down)
        let tables = ["outbox", "tills", "till_events", "print_jobs", "journal"]
        var before: [String: Int64] = [:]
        for table in tables { before[table] = try await Self.count(store, table) }
        let (removed, last) = try await Self.pass(store)
        #expect(removed.total == 0, "removed \(removed) with nothing acknowledged")
        for table in tables { #expect(try await Self.count(store, table) == before[table], "\(table)") }
        let why = try #require(last.heldBack)
        #expect(why.contains("journal entry 2 (till_opened)") && why.contains("is not recorded by the bank"), "\(why)")
        #expect(try await store.retentionReport().heldBack == why)
        #expect(written.payments == 2_400)
    }

    /// After pruning, verify walks from the checkpoint and still names an
    /// entry with one byte changed, a changed checkpoint, and a removal no
    /// checkpoint covers; SQL alone cannot remove anything else.
    @Test func theChainVerifiesAcrossPruningAndStillNamesAChangedByte() async throws {
        let store = try makeStore()
        let history = try SyntheticHistory(store: store, clock: clock)
        _ = try await history.write(days: 100, paymentsPerDay: 10)
        let (removed, _) = try await Self.pass(store)
        #expect(removed.journalEntries > 0)
        let verdict = try await store.verifyJournal()
        guard case .intact(let entries, let from) = verdict else { Issue.record("\(verdict)"); return }
        let carry = try #require(from)
        #expect(carry.pruned == Int64(removed.journalEntries))
        let journalRows = try await Self.count(store, "journal")
        #expect(entries == Int(journalRows))
        let path = directory.file(TellerStore.fileName)
        let target = carry.first + 5
        _ = try await store.enqueue(try TransactionRequest(kind: .deposit, account: history.account, amount: Money(minorUnits: 100, currency: .eur),
                                                           operatorID: history.operatorID))
        let verified = try await store.verifyJournal()
        // SQL alone cannot take any other entry, nor change one.
        try await store.withDatabase { (database: Database) throws in
            #expect(throws: SQLiteError.self) { try database.run("DELETE FROM journal WHERE sequence = ?", [.integer(target)]) }
            #expect(throws: SQLiteError.self) { try database.run("DELETE FROM journal WHERE sequence = ?", [.integer(carry.first)]) }
            #expect(throws: SQLiteError.self) { try database.run("UPDATE journal SET payload = '{}' WHERE sequence = ?", [.integer(target)]) }
            #expect(throws: SQLiteError.self) { try database.run("DELETE FROM outbox WHERE state = 'queued'") }
        }
        let editor = try Database(path: path)
        try editor.execute("DROP TRIGGER journal_never_updated")
        try editor.run("UPDATE journal SET time_ms = time_ms + 1 WHERE sequence = ?", [.integer(target)])
        #expect(try await store.verifyJournal() == .broken(.hashMismatch(sequence: target)))
        try editor.run("UPDATE journal SET time_ms = time_ms - 1 WHERE sequence = ?", [.integer(target)])
        #expect(try await store.verifyJournal() == verified)
        // The checkpoint's own bytes are hashed: naming another hash is a hash mismatch of the checkpoint.
        try editor.run("UPDATE journal SET payload = replace(payload, '\"through_hash\":\"', '\"through_hash\":\"0') WHERE sequence = ?",
                       [.integer(carry.checkpoint)])
        #expect(try await store.verifyJournal() == .broken(.previousHashMismatch(sequence: carry.first)))
    }

    /// The terminal stopped between two batches: the file opens, the chain
    /// verifies, the counts match what is gone, and the next pass goes on.
    @Test func stoppingBetweenBatchesLeavesAVerifiableDatabase() async throws {
        var stopped = RetentionReport.Counts()
        var written = SyntheticHistory.Written()
        do {
            let store = try makeStore()
            written = try await SyntheticHistory(store: store, clock: clock).write(days: 100, paymentsPerDay: 10)
            var removed = RetentionReport.Counts()
            for _ in 0..<7 { removed = removed + (try await store.pruneStep(retentionDays: 90, batch: 50)).removed }
            #expect(removed.total > 0)
            stopped = removed
        }
        let store = try makeStore()
        #expect(try await store.integrityReport() == "ok")
        let report = try await store.retentionReport()
        #expect(report.pruned == stopped)
        // A slip per payment and a void slip per void.
        #expect(written.payments == 100 * 10 && written.voided > 0)
        #expect(try await Self.count(store, "print_jobs") == Int64(written.payments + written.voided - report.pruned.printJobs))
        guard case .intact = try await store.verifyJournal() else { Issue.record("journal after a stop between batches"); return }
        let (removed, _) = try await Self.pass(store, batch: 50)
        #expect(removed.journalEntries > 0)
        guard case .intact(_, let from) = try await store.verifyJournal() else { Issue.record("journal after the pass"); return }
        let prunedEntries = try await store.retentionReport().pruned.journalEntries
        #expect(try #require(from).pruned == Int64(prunedEntries))
    }

    /// deploy/vm/crash_states.py, the second oracle, walks what retention
    /// left from its checkpoint as Swift does, and names a changed byte.
    @Test func theCrashStateCheckerVerifiesWhatRetentionLeft() async throws {
        let store = try makeStore()
        _ = try await SyntheticHistory(store: store, clock: clock).write(days: 95, paymentsPerDay: 5)
        let (removed, _) = try await Self.pass(store)
        #expect(removed.journalEntries > 0)
        let kept = try await Self.count(store, "journal")
        let oldest = try await store.withDatabase { try $0.queryInt64("SELECT min(sequence) FROM journal") ?? 0 }
        let path = directory.file(TellerStore.fileName)
        let intact = try await CrashStateJournalChecker.verdict(path)
        #expect(intact.stdout == "(\(kept), None)\n", "\(intact.stdout) \(intact.stderr)")
        let editor = try Database(path: path)
        try editor.execute("DROP TRIGGER journal_never_updated")
        try editor.run("UPDATE journal SET time_ms = time_ms + 1 WHERE sequence = ?", [.integer(oldest + 3)])
        let broken = try await CrashStateJournalChecker.verdict(path)
        #expect(broken.stdout == "(3, 'entry \(oldest + 3): hash mismatch')\n", "\(broken.stdout) \(broken.stderr)")
        #expect(try await store.verifyJournal() == .broken(.hashMismatch(sequence: oldest + 3)))
    }

    /// A terminal updated from schema 5 with a journal: version 6, the same
    /// chain verified from entry 1, its file left in its vacuum mode (the
    /// freed pages are reused), and its old days pruned behind a checkpoint.
    @Test func aVersion5DatabaseMigratesKeepsItsChainAndPrunes() async throws {
        let path = directory.file(TellerStore.fileName)
        do {
            let database = try Database(path: path)
            try Migrator(Schema.migrator.migrations.filter { $0.version <= 5 }).migrate(database, now: clock.now())
            let journal = JournalStore(database: database)
            for index in 0..<40 {
                _ = try database.inTransaction {
                    try journal.append(index % 2 == 0 ? .signIn(OperatorID("1001")!, mode: .online) : .signOut(OperatorID("1001")!),
                                       at: clock.now().addingTimeInterval(Double(index) * 3600))
                }
            }
        }
        clock.advance(200 * 86_400)
        let store = try makeStore()
        try await store.withDatabase { (database: Database) throws in
            #expect(try Migrator.currentVersion(of: database) == Schema.migrator.knownVersion)
            #expect(try database.queryInt64("PRAGMA auto_vacuum") == 0, "an existing file is not rewritten at migration")
        }
        #expect(try await store.verifyJournal() == .intact(entries: 40))
        let (removed, _) = try await Self.pass(store)
        #expect(removed.journalEntries == 40)
        // One checkpoint per day removed (two days of 24 and 16 entries); the second carries the chain.
        #expect(try await store.verifyJournal() == .intact(entries: 2, from: JournalCarry(checkpoint: 42, time: clock.now(), pruned: 40)))
        let fresh = TemporaryDirectory("teller-retention-new")
        let created = try TellerStore(dataDirectory: fresh.path, limits: Fixtures.limits, clock: clock, zone: .utc)
        #expect(try await created.withDatabase { try $0.queryInt64("PRAGMA auto_vacuum") } == 2, "a new file gives freed pages back")
    }
}
