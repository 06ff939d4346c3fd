@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite

/// What an open of teller.db checks, and what the running terminal's
/// background check finds (docs/architecture.md, "What is checked, and when").
@Suite struct DatabaseCheckTests {
    let directory = TemporaryDirectory()

    /// A store with `settled` payments the bank confirmed, then `queued` more.
    func store(at path: String, settled: Int, queued: Int) async throws -> TellerStore {
        let store = try TellerStore(path: path, limits: Fixtures.limits)
        for amount in 1...settled {
            let entry = try await store.enqueue(Fixtures.deposit(Int64(amount)))
            try await store.record(.posted(reference: "R-\(amount)", replayed: false), for: entry.id)
        }
        for amount in 0..<queued { _ = try await store.enqueue(Fixtures.deposit(Int64(9_000 + amount))) }
        return store
    }

    /// Overwrites with 0xA5 the outbox table's leaf page that holds the row
    /// with `key` (the key is also on a page of its unique index, and in
    /// journal entries: those are other pages). SQLite's `dbstat` names the
    /// outbox's leaf pages.
    func scribbleThePageHolding(_ key: IdempotencyKey, in path: String) throws {
        let reader = try Database(readingOnly: path)
        let pages: [Int64] = try reader.query("SELECT pageno FROM dbstat WHERE name = 'outbox' AND pagetype = 'leaf'") { (row: Statement) throws(SQLiteError) in
            row.int64(0)
        }
        let leaves = Set(pages.map(Int.init))
        #expect(leaves.count > 2, "the outbox fits on \(leaves.count) pages: the test needs old rows on pages of their own")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array(key.rawValue.utf8)
        let found = try #require(bytes.indices.first { (i: Int) -> Bool in leaves.contains(i / 4096 + 1) && bytes[i...].starts(with: needle) },
                                 "no leaf page of the outbox holds \(key) in \(path)")
        let page = found / 4096 * 4096
        for i in page..<(page + 4096) { bytes[i] = 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func damageInOldHistoryIsFoundByTheBackgroundCheckWhichStopsWritesAndMarksTheFile() async throws {
        let path = directory.file("teller.db")
        var oldKey: IdempotencyKey?
        do {
            let store = try await store(at: path, settled: 600, queued: 3)
            oldKey = try await store.entries(recent: 600_000).last?.key
        }
        let key = try #require(oldKey)
        try scribbleThePageHolding(key, in: path)

        // An open reads what the terminal works on, not years of settled rows: it opens.
        let store = try TellerStore(path: path, limits: Fixtures.limits)
        let check = DatabaseCheck(store: store)
        let outcome = check.check()
        let damage = try #require(outcome.damage, "the whole check did not find the scribbled page")
        #expect(check.last == outcome)
        let mark = try String(contentsOfFile: DatabaseCheck.markPath(for: path), encoding: .utf8)
        #expect(mark.contains(damage))

        // The store takes no more writes once told, and says why.
        await check.storeTold()
        await #expect { _ = try await store.enqueue(Fixtures.deposit(4_200)) } throws: { error in
            guard case .storage(let failure) = error as? TellerError else { return false }
            return failure.kind == .failing && failure.detail.contains("damaged")
        }

        // The next open checks the whole file because of the mark, and refuses it.
        #expect { _ = try TellerStore(path: path, limits: Fixtures.limits) } throws: { error in
            (error as? DatabaseRefusal)?.reason.kind == .damaged
        }
        #expect { _ = try TellerStore(readingOnly: directory.path, limits: Fixtures.limits) } throws: { error in
            (error as? DatabaseRefusal)?.reason.kind == .damaged
        }
    }

    @Test func aWholeFilePassesTheBackgroundCheckAndLeavesNoMark() async throws {
        let path = directory.file("teller.db")
        let store = try await store(at: path, settled: 50, queued: 2)
        let outcome = DatabaseCheck(store: store).check()
        #expect(outcome.damage == nil)
        #expect(!FileManager.default.fileExists(atPath: DatabaseCheck.markPath(for: path)))
        _ = try await store.enqueue(Fixtures.deposit(77))
    }

    @Test func aMarkLeftOnAWholeFileIsClearedByTheWholeCheckOfTheNextOpen() async throws {
        let path = directory.file("teller.db")
        do { _ = try await store(at: path, settled: 5, queued: 1) }
        try Data("damage seen before a restore\n".utf8).write(to: URL(fileURLWithPath: DatabaseCheck.markPath(for: path)))
        _ = try TellerStore(path: path, limits: Fixtures.limits)
        #expect(!FileManager.default.fileExists(atPath: DatabaseCheck.markPath(for: path)))
    }

    @Test func damageOnAPageOfAQueuedPaymentIsRefusedOnOpen() async throws {
        let path = directory.file("teller.db")
        var queuedKey: IdempotencyKey?
        do {
            let store = try await store(at: path, settled: 600, queued: 3)
            queuedKey = try await store.entries().first { $0.state.isPending }?.key
        }
        try scribbleThePageHolding(try #require(queuedKey), in: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect { _ = try TellerStore(path: path, limits: Fixtures.limits) } throws: { error in
            (error as? DatabaseRefusal)?.reason.kind == .damaged
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func theQueueShowsEveryRowToSettleAndOnlyTheNewestSettledOnes() async throws {
        let store = try await store(at: directory.file("teller.db"), settled: 30, queued: 4)
        let shown = try await store.entries(recent: 10)
        #expect(shown.count == 10 + 0, "the 4 queued are among the newest 10")
        let older = try await store.entries(recent: 2)
        #expect(older.count == 4)
        #expect(older.allSatisfy { $0.state.isPending })
        #expect(older.map(\.id) == older.map(\.id).sorted(by: >))
    }
}
