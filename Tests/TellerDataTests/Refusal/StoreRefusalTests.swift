@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite
import ProcessTestSupport

/// `teller run` opens the store read-write; it refuses the same broken
/// files as `teller status`, before any pragma that writes, and leaves them
/// byte for byte as they were (no -wal or -shm either).
@Suite(.tags(.realProcess)) struct StoreRefusalTests {
    @Test(arguments: [BrokenDataDirectory.Case.zeroLength, .foreign, .newerSchema, .truncated])
    func readWriteOpenRefusesAndKeepsTheFile(_ kind: BrokenDataDirectory.Case) async throws {
        let broken = try await BrokenDataDirectory(kind)
        let before = try await DirectorySnapshot(broken.root.path)
        do {
            _ = try TellerStore(dataDirectory: broken.dataDirectory, limits: Fixtures.limits)
            Issue.record("TellerStore opened a \(kind) database")
        } catch {
            #expect("\(error)".contains(broken.database), "\(error)")
            let refusal = try #require(error as? DatabaseRefusal, "not a refusal: \(error)")
            #expect(refusal.path == broken.database)
            #expect(refusal.reason.kind == Self.expected[kind], "\(refusal)")
        }
        let after = try await DirectorySnapshot(broken.root.path)
        #expect(after == before, "opening changed the data directory:\nbefore\n\(before)\nafter\n\(after)")
    }

    static let expected: [BrokenDataDirectory.Case: DatabaseRefusal.Kind] = [
        .zeroLength: .empty, .foreign: .foreign, .newerSchema: .newerSchema, .truncated: .damaged,
    ]

    /// A missing database is normal provisioning: `teller run` creates it.
    @Test func readWriteOpenCreatesAMissingDatabase() async throws {
        let broken = try await BrokenDataDirectory(.missingDirectory)
        let store = try TellerStore(dataDirectory: broken.dataDirectory, limits: Fixtures.limits)
        #expect(try await store.summary().pendingCount == 0)
        #expect(FileManager.default.fileExists(atPath: broken.database))
    }

    /// Status opens read-only: a missing database is reported, never created.
    @Test func readOnlyOpenDoesNotCreateAMissingDatabase() async throws {
        let broken = try await BrokenDataDirectory(.missingDatabase)
        #expect { _ = try TellerStore(readingOnly: broken.dataDirectory, limits: Fixtures.limits) } throws: { error in
            (error as? DatabaseRefusal)?.reason.kind == .missing && "\(error)".contains(broken.database)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: broken.dataDirectory).isEmpty)
    }
}
