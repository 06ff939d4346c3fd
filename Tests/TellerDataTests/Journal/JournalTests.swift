@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite
@testable import Cryptography
import ProcessTestSupport

/// The electronic journal in a real teller.db: chained by SHA-256, appended
/// in the transaction of the change it records, append-only in SQL, and a
/// verifier that names the first broken entry.
@Suite(.tags(.realProcess)) struct JournalTests {
    let directory = TemporaryDirectory("teller-journal")
    let clock = FixedClock(Fixtures.noon)

    func makeStore() throws -> TellerStore {
        try TellerStore(dataDirectory: directory.path, limits: Fixtures.limits, clock: clock, zone: .utc)
    }

    /// Five entries: a sign-in and four deposits of 10.00 to 40.00.
    func fiveEntries(_ store: TellerStore) async throws -> [OutboxEntry] {
        _ = try await store.append(.signIn(Fixtures.operatorID, mode: .online))
        var entries: [OutboxEntry] = []
        for amount in [1_000, 2_000, 3_000, 4_000] as [Int64] {
            clock.advance(1)
            entries.append(try await store.enqueue(Fixtures.deposit(amount)))
        }
        return entries
    }

    /// Runs SQL on the file the way someone editing it would: through their
    /// own connection, after dropping the trigger that guards the journal.
    func tamper(_ sql: String, dropping trigger: String) throws {
        let database = try Database(path: directory.file(TellerStore.fileName))
        try database.execute("DROP TRIGGER \(trigger)")
        try database.execute(sql)
    }

    /// The hashes are SHA-256 over the previous hash's bytes and the
    /// canonical bytes: these values were computed with Python's hashlib
    /// (the crash-state checker's own implementation), so the two agree.
    @Test func theChainIsSHA256AsDocumented() throws {
        let first = JournalChain.canonicalBytes(sequence: 1, timeMilliseconds: 1_795_000_000_123, kind: "sign_in", operatorID: "1001",
                                                supervisorID: nil, payload: JournalEvent.signIn(OperatorID("1001")!, mode: .online).payload)
        let firstHash = try #require(JournalChain.hash(previous: JournalChain.genesis, canonical: first))
        #expect(firstHash == "8e9743525ef000b93495a9329b2214baa42cc625dbecb1b6626e3cb0ecc7affb")
        let event = JournalEvent(kind: .supervisorApproval, operatorID: OperatorID("1001")!, supervisorID: OperatorID("2002")!,
                                 details: ["note": .text("café \"q\"")])
        #expect(event.payload == #"{"note":"café \"q\""}"#)
        let second = JournalChain.canonicalBytes(sequence: 2, timeMilliseconds: 1_795_000_000_456, kind: event.kind.rawValue, operatorID: "1001",
                                                 supervisorID: "2002", payload: event.payload)
        #expect(JournalChain.hash(previous: firstHash, canonical: second) == "9da51eea4a80ca86db877f2a9ed19e395f3c87bbdfae3183ffabe6fc3c5b499c")
        #expect(JournalChain.hash(previous: "not hex", canonical: second) == nil)
    }

    @Test func everyEnqueueIsJournalledAndTheChainVerifies() async throws {
        let store = try makeStore()
        let queued = try await fiveEntries(store)
        let entries = try await store.journalEntries(from: 1, limit: 100)
        #expect(entries.map(\.kind) == [.signIn, .paymentEnqueued, .paymentEnqueued, .paymentEnqueued, .paymentEnqueued])
        #expect(entries.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(entries.first?.previousHash == JournalChain.genesis)
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $1.previousHash == $0.hash })
        #expect(entries[1].payload.contains(#""key":"\#(queued[0].key.rawValue)""#), "\(entries[1].payload)")
        #expect(entries[1].payload.contains(#""amount":1000"#), "\(entries[1].payload)")
        #expect(entries[1].time == queued[0].createdAt)
        #expect(try await store.verifyJournal() == .intact(entries: 5))
    }

    @Test func oneChangedByteInAPayloadIsNamed() async throws {
        let store = try makeStore()
        _ = try await fiveEntries(store)
        #expect(try await store.verifyJournal() == .intact(entries: 5))
        // 30.00 becomes 30.01 in entry 4's payload: one byte.
        try tamper("UPDATE journal SET payload = replace(payload, '\"amount\":3000', '\"amount\":3001') WHERE sequence = 4",
                   dropping: "journal_never_updated")
        let reopened = try makeStore()
        #expect(try await reopened.verifyJournal() == .broken(.hashMismatch(sequence: 4)))
    }

    @Test func aDeletedMiddleEntryIsNamedAsAGap() async throws {
        let store = try makeStore()
        _ = try await fiveEntries(store)
        try tamper("DELETE FROM journal WHERE sequence = 3", dropping: "journal_never_deleted")
        let reopened = try makeStore()
        let verdict = try await reopened.verifyJournal()
        #expect(verdict == .broken(.gap(missing: 3...3, next: 4)))
        if case .broken(let found) = verdict { #expect(found.description.contains("gap in the sequence"), "\(found)") }
    }

    @Test func deletedNewestEntriesAreNamedAsAGapToo() async throws {
        let store = try makeStore()
        _ = try await fiveEntries(store)
        try tamper("DELETE FROM journal WHERE sequence >= 4", dropping: "journal_never_deleted")
        let reopened = try makeStore()
        #expect(try await reopened.verifyJournal() == .broken(.gap(missing: 4...5, next: nil)))
    }

    @Test func aRewrittenLinkIsNamedAsAPreviousHashMismatch() async throws {
        let store = try makeStore()
        _ = try await fiveEntries(store)
        try tamper("UPDATE journal SET prev_hash = (SELECT hash FROM journal WHERE sequence = 1) WHERE sequence = 3",
                   dropping: "journal_never_updated")
        let reopened = try makeStore()
        #expect(try await reopened.verifyJournal() == .broken(.previousHashMismatch(sequence: 3)))
    }

    /// Changing or removing an entry through SQL is refused by the schema
    /// itself, and so is an entry that does not continue the chain.
    @Test func theSchemaKeepsTheJournalAppendOnly() async throws {
        let store = try makeStore()
        _ = try await fiveEntries(store)
        let database = try Database(path: directory.file(TellerStore.fileName))
        for sql in ["UPDATE journal SET payload = '{}' WHERE sequence = 2", "DELETE FROM journal WHERE sequence = 5", "DELETE FROM journal"] {
            let error = await thrownError(SQLiteError.self) { try database.execute(sql) }
            #expect(error?.message.contains("append-only") == true, "\(sql): \(String(describing: error))")
        }
        let last = try #require(try database.queryText("SELECT hash FROM journal WHERE sequence = 5"))
        let skipped = await thrownError(SQLiteError.self) {
            try database.run("INSERT INTO journal (sequence, time_ms, kind, operator_id, payload, prev_hash, hash) VALUES (7, 0, 'sign_out', '1001', '{}', ?, 'x')",
                             [.text(last)])
        }
        #expect(skipped?.message.contains("next sequence number") == true, "\(String(describing: skipped))")
        #expect(try database.queryInt64("SELECT count(*) FROM journal") == 5)
        #expect(try await store.verifyJournal() == .intact(entries: 5))
    }

    /// The journal's insert is the enqueue's last write: when it fails, the
    /// outbox row written before it in the same transaction is gone too.
    @Test func anEnqueueWhoseEntryCannotBeWrittenLeavesNoRow() async throws {
        let store = try makeStore()
        _ = try await store.enqueue(Fixtures.deposit(1_000))
        try await store.withDatabase {
            try $0.execute("CREATE TEMP TRIGGER journal_fails BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'disk gone'); END")
        }
        let error = await thrownError(TellerError.self) { _ = try await store.enqueue(Fixtures.deposit(2_000)) }
        #expect(error != nil)
        #expect(try await store.entries().map(\.request.amount) == [Fixtures.eur(1_000)])
        #expect(try await store.summary().pendingByCurrency == [.eur: Fixtures.eur(1_000)])
        try await store.withDatabase { try $0.execute("DROP TRIGGER temp.journal_fails") }
        #expect(try await store.verifyJournal() == .intact(entries: 1))
    }

    /// And when the outbox row cannot be written, no entry is.
    @Test func anEnqueueThatFailsLeavesNoEntry() async throws {
        let store = try makeStore()
        _ = try await store.enqueue(Fixtures.deposit(1_000))
        try await store.withDatabase {
            try $0.execute("CREATE TEMP TRIGGER outbox_fails AFTER INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'disk gone'); END")
        }
        let error = await thrownError(TellerError.self) { _ = try await store.enqueue(Fixtures.deposit(2_000)) }
        #expect(error != nil)
        #expect(try await store.journalEntries(from: 1, limit: 10).map(\.kind) == [.paymentEnqueued])
        // A limit that refuses writes nothing either.
        try await store.withDatabase { try $0.execute("DROP TRIGGER temp.outbox_fails") }
        let refused = await thrownError(TellerError.self) { _ = try await store.enqueue(Fixtures.deposit(100_001)) }
        #expect(refused.map { if case .limit = $0 { true } else { false } } == true, "\(String(describing: refused))")
        #expect(try await store.verifyJournal() == .intact(entries: 1))
    }

    @Test func signInsAndSignOutsAreJournalled() async throws {
        let store = try makeStore()
        let maria = Operator(id: Fixtures.operatorID, displayName: "Maria Keller")
        let hasher = PINHasher(operations: 1, memoryBytes: 8192)
        try await store.recordOnlineSignIn(maria, verifier: try hasher.verifier(for: "1234"))
        let session = OperatorSession(store: store, host: nil, hasher: hasher)
        let (signedIn, mode) = try await session.signIn(Fixtures.operatorID, pin: "1234")
        #expect(signedIn == maria && mode == .offline)
        // A wrong PIN signs nobody in and journals nothing.
        _ = await thrownError(SignInError.self) { _ = try await session.signIn(Fixtures.operatorID, pin: "9999") }
        try await session.signOut(maria)
        let entries = try await store.journalEntries(from: 1, limit: 10)
        #expect(entries.map(\.kind) == [.signIn, .signIn, .signOut])
        #expect(entries.map(\.payload) == [#"{"mode":"online"}"#, #"{"mode":"offline"}"#, "{}"])
        #expect(entries.allSatisfy { $0.operatorID == Fixtures.operatorID })
        #expect(try await store.verifyJournal() == .intact(entries: 3))
    }

    /// The crash-state checker (deploy/vm/crash_states.py, Python) reads a
    /// journal this store wrote, through SQLite, as intact, and names the
    /// entry whose payload changed: the two implementations of the chain agree.
    @Test func theCrashStateCheckerAgreesWithTheWriter() async throws {
        let store = try makeStore()
        let deposits = try await fiveEntries(store)
        _ = try await store.void(deposits[3].key, reason: .duplicate, by: Fixtures.operatorID)
        let path = directory.file(TellerStore.fileName)
        let intact = try await CrashStateJournalChecker.verdict(path)
        #expect(intact.stdout == "(6, None)\n", "\(intact.stdout) \(intact.stderr)")
        try tamper("UPDATE journal SET payload = replace(payload, '\"amount\":2000', '\"amount\":2001') WHERE sequence = 3",
                   dropping: "journal_never_updated")
        let broken = try await CrashStateJournalChecker.verdict(path)
        #expect(broken.stdout == "(2, 'entry 3: hash mismatch')\n", "\(broken.stdout) \(broken.stderr)")
    }

    /// Export's day is the terminal's wall-clock day: in UTC+2, 23:30 UTC is
    /// already the next day.
    @Test func entriesAreFoundByTheTerminalsLocalDay() async throws {
        let clock = FixedClock(Date(timeIntervalSince1970: 1_795_000_000 - 1_795_000_000.truncatingRemainder(dividingBy: 86_400) + 21 * 3600))
        let store = try TellerStore(dataDirectory: directory.path, limits: Fixtures.limits, clock: clock, zone: .fixed(secondsEastOfUTC: 7200))
        let day = LocalTime(clock.now(), in: .fixed(secondsEastOfUTC: 7200))
        func name(_ t: LocalTime) -> String { "\(t.year.zeroPadded(4))-\(t.month.zeroPadded(2))-\(t.day.zeroPadded(2))" }
        _ = try await store.append(.signIn(Fixtures.operatorID, mode: .online))  // 21:00 UTC, 23:00 local
        clock.advance(1800)
        _ = try await store.append(.signOut(Fixtures.operatorID))  // 21:30 UTC, 23:30 local
        clock.advance(3600)
        _ = try await store.append(.signIn(Fixtures.operatorID, mode: .offline))  // 22:30 UTC, 00:30 local, the next day
        let first = try await store.journalEntries(onLocalDay: name(day))
        #expect(first.map(\.sequence) == [1, 2])
        let next = try await store.journalEntries(onLocalDay: name(LocalTime(clock.now(), in: .fixed(secondsEastOfUTC: 7200))))
        #expect(next.map(\.sequence) == [3])
        #expect(try await store.journalEntries(onLocalDay: "1999-01-01").isEmpty)
    }
}
