@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite

/// The one write that skips fsync must hand the connection back with
/// `synchronous=FULL`, or every enqueue after it would lose its durability.
@Suite struct WithoutFsyncTests {
    struct Refused: Error {}

    @Test func fullSynchronousIsRestoredWhetherTheBodyReturnsOrThrows() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.file("sync.db"))
        #expect(try database.queryInt64("PRAGMA synchronous") == 2)
        let inside = try database.withoutFsync { try database.queryInt64("PRAGMA synchronous") }
        #expect(inside == 1, "NORMAL inside")
        #expect(try database.queryInt64("PRAGMA synchronous") == 2)
        #expect(throws: Refused.self) { try database.withoutFsync { throw Refused() } }
        #expect(try database.queryInt64("PRAGMA synchronous") == 2)
    }

    @Test func markingARowSendingLeavesTheStoreFullySynchronous() async throws {
        let directory = TemporaryDirectory()
        let store = try TellerStore(dataDirectory: directory.path, limits: Fixtures.limits)
        let entry = try await store.enqueue(Fixtures.deposit(100))
        try await store.markSending(entry.id)
        #expect(try await store.entry(for: entry.key)?.state == .sending)
        #expect(try await store.withDatabase { try $0.queryInt64("PRAGMA synchronous") } == 2)
        // A row already sending cannot be marked again, and the failure also restores FULL.
        await #expect(throws: TellerError.self) { try await store.markSending(entry.id) }
        #expect(try await store.withDatabase { try $0.queryInt64("PRAGMA synchronous") } == 2)
    }
}
