@testable import ProcessHarness
import Foundation
import Testing
@testable import TellerData
@testable import SQLite

/// A data directory holding one of the databases Teller must refuse, and
/// what the directory held before, to prove that nothing was written.
struct BrokenDataDirectory {
    /// The kinds of bad input, each with what `teller status` must say.
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case missingDirectory, missingDatabase, zeroLength, foreign, newerSchema, truncated

        var testDescription: String { rawValue }
    }

    let root: TemporaryDirectory
    /// The `--data-dir` to pass; inside `root`, which is what is compared.
    let dataDirectory: String
    var database: String { (dataDirectory as NSString).appendingPathComponent(TellerStore.fileName) }

    init(_ kind: Case) async throws {
        root = TemporaryDirectory("teller-refusal")
        dataDirectory = kind == .missingDirectory ? root.file("no-such-dir") : root.file("data")
        if kind != .missingDirectory { try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: false) }
        switch kind {
        case .missingDirectory, .missingDatabase:
            break
        case .zeroLength:
            try Data().write(to: URL(fileURLWithPath: database))
        case .foreign:
            // Another application's database, in rollback-journal mode as most are.
            let other = try Database(path: database)
            try other.execute("PRAGMA journal_mode=DELETE; CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ada');")
        case .newerSchema:
            // A database the next Teller wrote, left in rollback-journal mode.
            try await Self.tellerDatabase(at: database, rows: 3)
            let newer = try Database(path: database)
            let next = try #require(Schema.migrator.migrations.last).version + 1
            try newer.run("INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, 'from the future', 0)", [.integer(next)])
            try newer.execute("PRAGMA journal_mode=DELETE")
        case .truncated:
            try await Self.tellerDatabase(at: database, rows: 200)
            let full = try Data(contentsOf: URL(fileURLWithPath: database))
            try full.prefix(full.count / 2 / 4096 * 4096).write(to: URL(fileURLWithPath: database))
        }
        #expect(!FileManager.default.fileExists(atPath: database + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: database + "-shm"))
    }

    /// A sound Teller database with `rows` queued deposits, closed cleanly
    /// (WAL checkpointed and removed; the header still says WAL).
    static func tellerDatabase(at path: String, rows: Int) async throws {
        let store = try TellerStore(path: path, limits: Fixtures.limits)
        for amount in 0..<rows { _ = try await store.enqueue(Fixtures.deposit(Int64(amount + 1))) }
    }
}

/// Every file and directory under a root with the sha256 of each file, to
/// compare before and after a command that must not write.
struct DirectorySnapshot: Equatable, CustomStringConvertible {
    let entries: [String: String]

    init(_ root: String) async throws {
        var entries: [String: String] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        while let relative = enumerator.nextObject() as? String {
            let path = (root as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                entries[relative + "/"] = "directory"
            } else {
                let sum = try await ChildProcess.run("/usr/bin/sha256sum", [path])
                try #require(sum.status == 0, "sha256sum \(path): \(sum.stderr)")
                entries[relative] = String(sum.stdout.prefix(64))
            }
        }
        self.entries = entries
    }

    var description: String { entries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "\n") }
}

/// `teller status` as a real process, with an empty configuration file so
/// nothing in /etc/teller on this machine leaks in.
enum TellerStatusProcess {
    static func run(dataDirectory: String, asUser user: String? = nil, _ extra: [String] = []) async throws -> (status: Int32, stdout: String, stderr: String) {
        let files = TemporaryDirectory("teller-status-config")
        chmod(files.path, 0o755)
        let configFile = files.file("teller.conf")
        try Data().write(to: URL(fileURLWithPath: configFile))
        chmod(configFile, 0o644)
        var command = [TestProducts.executable("teller"), "status", "--config", configFile, "--data-dir", dataDirectory] + extra
        if let user {
            let account = try #require(getpwnam(user), "no user \(user)")
            let (uid, gid) = (account.pointee.pw_uid, account.pointee.pw_gid)
            command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"] + command
        }
        let executable = command.removeFirst()
        return try await ChildProcess.run(executable, command)
    }
}
