@testable import ProcessHarness
import Foundation
import Testing
@testable import TellerData
import ProcessTestSupport

/// `teller status` only reads: for every database it must refuse, the real
/// binary exits with that case's code, names the file and the problem on
/// stderr, and leaves every byte and every directory entry as it was.
@Suite(.tags(.realProcess)) struct StatusRefusalTests {
    func expectRefused(_ kind: BrokenDataDirectory.Case, exitCode: Int32, saying problem: String) async throws {
        let broken = try await BrokenDataDirectory(kind)
        let before = try await DirectorySnapshot(broken.root.path)
        let result = try await TellerStatusProcess.run(dataDirectory: broken.dataDirectory)
        let after = try await DirectorySnapshot(broken.root.path)
        #expect(after == before, "teller status changed the data directory:\nbefore\n\(before)\nafter\n\(after)")
        #expect(result.status == exitCode, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(broken.database), "stderr does not name the file: \(result.stderr)")
        #expect(result.stderr.contains(problem), "stderr does not say '\(problem)': \(result.stderr)")
        #expect(!result.stderr.contains("re-provision") || kind != .newerSchema)
        #expect(result.stdout.isEmpty, "a report was printed for a refused database: \(result.stdout)")
    }

    @Test func missingDirectoryIsReportedNotCreated() async throws {
        try await expectRefused(.missingDirectory, exitCode: 3, saying: "does not exist")
    }

    @Test func missingDatabaseIsReportedNotCreated() async throws {
        try await expectRefused(.missingDatabase, exitCode: 3, saying: "does not exist")
    }

    @Test func zeroLengthDatabaseIsRefusedAndKept() async throws {
        try await expectRefused(.zeroLength, exitCode: 4, saying: "is empty (0 bytes)")
    }

    @Test func foreignDatabaseIsRefusedAndKept() async throws {
        try await expectRefused(.foreign, exitCode: 5, saying: "is not a Teller database")
    }

    @Test func newerSchemaIsRefusedAndKept() async throws {
        try await expectRefused(.newerSchema, exitCode: 6, saying: "newer than this Teller understands")
    }

    @Test func truncatedDatabaseIsRefusedAndKept() async throws {
        try await expectRefused(.truncated, exitCode: 7, saying: "is damaged")
    }

    /// A sound database closed cleanly has no -wal or -shm; reading it must not create them.
    @Test func healthyDatabaseIsReportedWithoutWriting() async throws {
        let directory = TemporaryDirectory("teller-status-healthy")
        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        try await BrokenDataDirectory.tellerDatabase(at: (data as NSString).appendingPathComponent(TellerStore.fileName), rows: 2)
        let before = try await DirectorySnapshot(directory.path)
        let result = try await TellerStatusProcess.run(dataDirectory: data)
        let after = try await DirectorySnapshot(directory.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("\"pending_count\" : 2"), "\(result.stdout)")
        #expect(after == before, "teller status changed the data directory:\nbefore\n\(before)\nafter\n\(after)")
    }

    static let canSwitchUser = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// Owned by root, mode 0444, in a directory the reader cannot write:
    /// status reads it as another user and never calls it damaged.
    @Test(.enabled(if: canSwitchUser, "needs root and setpriv to read as another user"))
    func readOnlyDatabaseIsReportedNotCalledDamaged() async throws {
        let directory = TemporaryDirectory("teller-status-readonly")
        chmod(directory.path, 0o755)
        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        let database = (data as NSString).appendingPathComponent(TellerStore.fileName)
        try await BrokenDataDirectory.tellerDatabase(at: database, rows: 3)
        chmod(database, 0o444)
        chmod(data, 0o555)
        defer { chmod(data, 0o755) }
        let before = try await DirectorySnapshot(directory.path)
        let result = try await TellerStatusProcess.run(dataDirectory: data, asUser: "nobody")
        let after = try await DirectorySnapshot(directory.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("damaged"), "\(result.stderr)")
        #expect(result.stdout.contains("\"pending_count\" : 3"), "\(result.stdout)")
        #expect(after == before)
    }

    /// A file the reader may not open gets a permission message, not "damaged".
    @Test(.enabled(if: canSwitchUser, "needs root and setpriv to read as another user"))
    func unreadableDatabaseGetsAPermissionMessage() async throws {
        let directory = TemporaryDirectory("teller-status-unreadable")
        chmod(directory.path, 0o755)
        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        let database = (data as NSString).appendingPathComponent(TellerStore.fileName)
        try await BrokenDataDirectory.tellerDatabase(at: database, rows: 1)
        chmod(database, 0o600)
        let before = try await DirectorySnapshot(directory.path)
        let result = try await TellerStatusProcess.run(dataDirectory: data, asUser: "nobody")
        let after = try await DirectorySnapshot(directory.path)
        #expect(result.status == 8, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(database) && result.stderr.contains("permission denied"), "\(result.stderr)")
        #expect(!result.stderr.contains("damaged"), "\(result.stderr)")
        #expect(after == before)
    }
}
