@testable import ProcessHarness
import Foundation
import TellerCore
@testable import TellerData
@testable import SQLite

/// `teller drain` as a real process on a terminal data directory, and what
/// its log says (one stderr line per wake and per final outcome).
enum TellerDrainProcess {
    /// Starts `teller drain` for the demo terminal.
    /// - Parameters:
    ///   - options: further flags, e.g. `--until-empty`, `--retry-base-s 30`.
    ///   - namespace: a network namespace to run it in (`ip netns exec`).
    static func start(dataDirectory: String, hostURL: URL, options: [String], namespace: String? = nil) throws -> (ChildProcess, TemporaryDirectory) {
        let files = TemporaryDirectory("teller-drain-files")
        // An empty configuration file, so nothing in /etc/teller on this machine leaks in.
        let configFile = files.file("teller.conf")
        try Data().write(to: URL(fileURLWithPath: configFile))
        let secretFile = files.file("terminal-secret")
        try Data(ReferenceHost.terminalSecret.utf8).write(to: URL(fileURLWithPath: secretFile))
        chmod(secretFile, 0o600)
        var command = [TestProducts.executable("teller"), "drain", "--config", configFile, "--data-dir", dataDirectory,
                       "--host-url", hostURL.absoluteString, "--terminal-id", ReferenceHost.terminalID, "--secret-file", secretFile] + options
        if let namespace {
            command = [try ChildProcess.ip(), "netns", "exec", namespace] + command
        }
        let executable = command.removeFirst()
        return (try ChildProcess(executable, command), files)
    }

    /// The keys of `<6>sync: confirmed KEY REF` lines, in log order.
    static func confirmedKeys(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("<6>sync: confirmed ") else { return nil }
            return line.split(separator: " ").dropFirst(2).first.map(String.init)
        }
    }

    /// The reasons of `<6>sync: woke (REASON)` lines, in log order.
    static func wakeReasons(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            // Info, or debug for a retry's timer.
            guard line.hasPrefix("<6>sync: woke (") || line.hasPrefix("<7>sync: woke ("), line.hasSuffix(")") else { return nil }
            return String(line.dropFirst("<6>sync: woke (".count).dropLast())
        }
    }
}

/// One outbox row as another process left it, read without TellerStore
/// (whose opening would reset rows in `sending` under a live drain).
struct OutboxRowSnapshot {
    let id: Int64
    let key: String
    let state: OutboxState.Kind
    let attempts: Int
    let nextAttemptAt: Date?
    let lastError: String?

    static func all(inDataDirectory directory: String) throws -> [OutboxRowSnapshot] {
        let database = try Database(path: (directory as NSString).appendingPathComponent(TellerStore.fileName))
        return try database.query("SELECT id, idempotency_key, state, attempts, next_attempt_at_ms, last_error FROM outbox ORDER BY id") {
            (row: Statement) throws(SQLiteError) in
            OutboxRowSnapshot(id: row.int64(0), key: row.text(1), state: try OutboxColumns.state(row.text(2), of: "outbox row \(row.int64(0)) is", sql: row.sql),
                              attempts: Int(row.int64(3)),
                              nextAttemptAt: row.optionalInt64(4).map { Date(timeIntervalSince1970: Double($0) / 1000) }, lastError: row.optionalText(5))
        }
    }
}
