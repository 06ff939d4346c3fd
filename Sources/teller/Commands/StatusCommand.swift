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
            // Read-only: status creates, migrates and writes nothing, even to a sound database.
            let store = try TellerStore(readingOnly: configuration.dataDirectory, limits: configuration.limits())
            let report = try await statusReport(store, now: Date())
            let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            FileHandle.standardOutput.write(json + Data("\n".utf8))
            return 0
        } catch let refusal as DatabaseRefusal {
            Log.error("teller status: \(refusal)")
            Log.error("teller status: nothing was written: the directory and the file are exactly as they were.")
            return exitCode(refusal.reason.kind)
        } catch TellerError.storage(let failure) {
            // The technician's detail (file, what is wrong, SQL), not the operator's "Not saved" sentence.
            Log.error("teller status: \(failure.detail)")
            return 1
        } catch {
            Log.error("teller status: \(error)")
            return 1
        }
    }

    /// One exit code per kind of refused database; listed in `teller --help`
    /// (Usage.swift) and docs/deploy.md, and relied on by deploy/lib/common.sh.
    static func exitCode(_ kind: DatabaseRefusal.Kind) -> Int32 {
        switch kind {
        case .missing: 3
        case .empty: 4
        case .foreign: 5
        case .newerSchema: 6
        case .damaged: 7
        case .unreadable: 8
        case .olderSchema: 9
        }
    }

    static func statusReport(_ store: TellerStore, now: Date) async throws -> [String: Any] {
        let summary = try await store.summary()
        let review = try await store.needsReviewEntries()
        return [
            "sync_problem": problemJSON(try await store.recordedProblem()),
            "needs_review": review.map { entry -> [String: Any] in
                var row: [String: Any] = ["idempotency_key": entry.key.rawValue, "amount": entry.request.amount.description,
                                          "kind": entry.request.kind.rawValue, "reason": entry.lastError ?? ""]
                if case .needsReview(_, let acknowledged) = entry.state { row["acknowledged"] = acknowledged }
                return row
            },
            "database": store.path,
            // Keyed by the stored words, which monitoring and deploy/lib/common.sh read.
            "counts": Dictionary(uniqueKeysWithValues: summary.countsByState.map { ($0.key.rawValue, $0.value) }),
            "pending_count": summary.pendingCount,
            "pending": pendingJSON(summary),
            "oldest_queued_age_seconds": oldestAgeJSON(summary, now: now),
            "unacknowledged_rejections": summary.unacknowledgedRejections,
            "unacknowledged_reviews": summary.unacknowledgedReviews,
        ]
    }

    /// Money not yet at the host, per currency: `{"EUR": {"minor_units": 1250, "amount": "12.50"}}`.
    /// Shared with `teller ctl status`.
    static func pendingJSON(_ summary: QueueSummary?) -> [String: Any] {
        var pending: [String: Any] = [:]
        for (currency, money) in summary?.pendingByCurrency ?? [:] {
            pending[currency.code] = ["minor_units": money.minorUnits, "amount": money.decimalString]
        }
        return pending
    }

    /// Why nothing goes out: `{"kind": "mismatch", "detail": "…", "since": "2026-…Z"}`, or JSON null.
    /// Shared with `teller ctl status`.
    static func problemJSON(_ problem: SyncProblem?) -> Any {
        guard let problem else { return NSNull() }
        return ["kind": problem.kind.rawValue, "detail": problem.detail, "since": ISO8601DateFormatter().string(from: problem.since)]
    }

    /// Whole seconds since the oldest queued row, or JSON null.
    static func oldestAgeJSON(_ summary: QueueSummary?, now: Date) -> Any {
        summary?.oldestQueuedAt.map { Int(now.timeIntervalSince($0).rounded(.down)) } ?? NSNull()
    }
}
