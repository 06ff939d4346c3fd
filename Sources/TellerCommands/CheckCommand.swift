import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData
import SQLite

/// `teller check [--full]`: the whole-file check of teller.db that no open
/// makes (docs/architecture.md, "What is checked, and when"), for a
/// technician or a script: SQLite's `quick_check`, or with `--full` its
/// `integrity_check`, which also compares every index with its table, and
/// the outbox's counts per state with its rows.
/// Read-only, with status's exit codes: 7 when the file is damaged.
public enum CheckCommand {
    public static func run(_ arguments: [String]) async -> Int32 {
        let full = arguments.contains("--full")
        return await StatusCommand.printing(arguments, command: "check", switches: ["full"]) { store, _ in
            let started = ContinuousClock.now
            let findings = try await full ? store.integrityReport() : store.quickCheckReport()
            let elapsed = ContinuousClock.now - started
            let seconds = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18).fixed(decimals: 2)
            let size = FileStatus(path: store.path)?.size ?? 0
            let pragma = full ? "integrity_check" : "quick_check"
            guard findings == "ok" else {
                let refusal = DatabaseRefusal(path: store.path, reason: .damaged("\(full ? "teller check --full" : "PRAGMA quick_check") found " + findings.split(separator: "\n").prefix(5).joined(separator: "; ")))
                Log.error("teller check: \(refusal)")
                return (Data(), refusal.reason.kind.exitCode)
            }
            let line = "ok: \(store.path) is whole (\(pragma), \(size / 1_048_576) MiB, \(seconds) s)\n"
            return (Data(line.utf8), 0)
        }
    }
}
