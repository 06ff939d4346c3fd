@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite

/// A damaged database must never be recreated or written to: opening fails
/// with an error naming the file, and the file keeps every byte.
@Suite struct DamagedDatabaseTests {
    let directory = TemporaryDirectory()

    func storeWithRows(at path: String) async throws {
        let store = try TellerStore(path: path, limits: Fixtures.limits)
        for amount in 1...200 { _ = try await store.enqueue(Fixtures.deposit(Int64(amount))) }
    }

    func expectRefusedAndUnchanged(_ path: String) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect { _ = try TellerStore(path: path, limits: Fixtures.limits) } throws: { error in
            let refusal = try #require(error as? DatabaseRefusal, "not a refusal: \(error)")
            return refusal.path == path && refusal.reason.kind == .damaged && refusal.description.contains(path)
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(before == after, "the damaged file was modified")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "a WAL was created beside the damaged file")
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"), "a -shm was created beside the damaged file")
    }

    @Test func garbageFileIsRefusedAndKept() throws {
        let path = directory.file("garbage.db")
        var bytes = [UInt8](repeating: 0, count: 8192)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 7919 &+ 13) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try expectRefusedAndUnchanged(path)
    }

    @Test func textFileIsRefusedAndKept() throws {
        let path = directory.file("notes.db")
        try Data("this is not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        try expectRefusedAndUnchanged(path)
    }

    @Test(arguments: [0.5, 0.8])
    func truncatedDatabaseIsRefusedAndKept(fraction: Double) async throws {
        let path = directory.file("truncated-\(fraction).db")
        try await storeWithRows(at: path)
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "closing the store should checkpoint the WAL")
        // Cut on a page boundary after the schema pages so the header still parses.
        let pageSize = 4096
        let cut = max(2 * pageSize, Int(Double(full.count) * fraction) / pageSize * pageSize)
        #expect(cut < full.count)
        try full.prefix(cut).write(to: URL(fileURLWithPath: path))
        try expectRefusedAndUnchanged(path)
    }

    @Test func overwrittenPagesAreRefusedAndKept() async throws {
        let path = directory.file("scribbled.db")
        try await storeWithRows(at: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for i in (4096 * 2)..<(4096 * 3) where i < bytes.count { bytes[i] = 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try expectRefusedAndUnchanged(path)
    }

    @Test func missingDirectoryIsAClearError() throws {
        let path = directory.file("no/such/dir/teller.db")
        #expect { _ = try TellerStore(path: path, limits: Fixtures.limits) } throws: { error in
            (error as? SQLiteError)?.code.primary == .cantOpen && "\(error)".contains(path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
