import Foundation
import TellerCore
import TellerData

/// `teller status`: the outbox state as one JSON object, for technicians,
/// `deploy/diagnose` and monitoring.
enum StatusCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        let options = CommandLineOptions(arguments)
        guard options.reportProblems(command: "status") else { return 2 }
        let configuration = options.configuration
        do {
            let store = try TellerStore(dataDirectory: configuration.dataDirectory, limits: configuration.limits())
            let report = try await statusReport(store, now: Date())
            let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            FileHandle.standardOutput.write(json + Data("\n".utf8))
            return 0
        } catch let error as SQLiteError {
            Log.error("teller status: \(error)")
            Log.error("teller status: the file was left exactly as it was; move it aside for forensics before restoring or re-provisioning.")
            return 1
        } catch {
            Log.error("teller status: \(error)")
            return 1
        }
    }

    static func statusReport(_ store: TellerStore, now: Date) async throws -> [String: Any] {
        let summary = try await store.summary()
        var pending: [String: Any] = [:]
        for (currency, money) in summary.pendingByCurrency {
            pending[currency.code] = ["minor_units": money.minorUnits, "amount": money.decimalString]
        }
        let oldestAge: Any = summary.oldestQueuedAt.map { Int(now.timeIntervalSince($0).rounded(.down)) } ?? NSNull()
        return [
            "database": store.path,
            "counts": summary.countsByState,
            "pending_count": summary.pendingCount,
            "pending": pending,
            "oldest_queued_age_seconds": oldestAge,
            "unacknowledged_rejections": summary.unacknowledgedRejections,
        ]
    }
}
