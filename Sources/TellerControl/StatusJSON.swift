import FoundationEssentials
import TellerCore

/// The JSON that `teller status` and `teller ctl status` print, so the two
/// cannot word the same fact differently: the outbox, why nothing goes out,
/// the money not yet at the host, and the terminal's certificate. Keys are
/// the stored words, which monitoring and deploy/lib/common.sh read.
public enum StatusJSON {
    /// The running terminal's `ctl status` field that says whether it
    /// reaches the bank now; `teller status --gate` reads it by this name.
    public static let onlineKey = "online"

    /// The terminal's certificate for mutual TLS, or null when none is configured.
    public static func clientCertificate(_ certificate: ClientCertificateStatus?, now: Date) -> JSONValue {
        guard let certificate else { return .null }
        return .object([
            "subject": .string(certificate.subject), "issuer": .string(certificate.issuer),
            "not_after": .string(certificate.notAfter.formatted(.iso8601)),
            "days_left": .integer(certificate.daysLeft(at: now)), "warn_days": .integer(certificate.warnDays),
            "renewal_due": .bool(certificate.needsRenewal(at: now)), "valid_now": .bool(!certificate.isInvalid(at: now)),
        ])
    }

    /// The outbox part of the report (`teller status` adds the terminal's own part).
    /// - Parameter database: the database file the report was read from.
    public static func outbox(_ report: OutboxReport, database: String, now: Date) -> [String: JSONValue] {
        let summary = report.summary
        return [
            "sync_problem": problem(report.problem),
            "needs_review": .array(report.needsReview.map { entry in
                var row: [String: JSONValue] = ["idempotency_key": .string(entry.key.rawValue), "amount": .string(entry.request.amount.description),
                                                "kind": .string(entry.request.kind.rawValue), "reason": .string(entry.lastError ?? "")]
                if case .needsReview(_, let acknowledged) = entry.state { row["acknowledged"] = .bool(acknowledged) }
                return .object(row)
            }),
            "database": .string(database),
            // Keyed by the stored words, which monitoring reads (scripts ask `teller status --settled`).
            "counts": .object(Dictionary(uniqueKeysWithValues: summary.countsByState.map { ($0.key.rawValue, .integer($0.value)) })),
            "pending_count": .integer(summary.pendingCount),
            "pending": pending(summary),
            "oldest_queued_age_seconds": oldestAge(summary, now: now),
            "unacknowledged_rejections": .integer(summary.unacknowledgedRejections),
            "unacknowledged_reviews": .integer(summary.unacknowledgedReviews),
            "till_events_queued": .integer(report.tillEventsQueued),
            "retention": retention(report.retention),
        ]
    }

    /// What retention removed so far: `{"last_removal": "2026-…Z", "last_pass": …, "removed": {"outbox": 120, …}, "held_back": "…"}`.
    public static func retention(_ report: RetentionReport) -> JSONValue {
        let removed = report.pruned
        return .object([
            "last_removal": report.lastPrunedAt.map { .string(timestamp($0)) } ?? .null,
            "last_pass": report.lastPassAt.map { .string(timestamp($0)) } ?? .null,
            "removed": .object(["outbox": .integer(removed.outboxRows), "tills": .integer(removed.tills), "till_events": .integer(removed.tillEvents),
                                "print_jobs": .integer(removed.printJobs), "journal": .integer(removed.journalEntries)]),
            "held_back": report.heldBack.map { .string($0) } ?? .null,
        ])
    }

    /// Money not yet at the host, per currency: `{"EUR": {"minor_units": 1250, "amount": "12.50"}}`.
    public static func pending(_ summary: QueueSummary?) -> JSONValue {
        var pending: [String: JSONValue] = [:]
        for (currency, money) in summary?.pendingByCurrency ?? [:] {
            pending[currency.code] = .object(["minor_units": .integer(Int(money.minorUnits)), "amount": .string(money.decimalString)])
        }
        return .object(pending)
    }

    /// Why nothing goes out: `{"kind": "mismatch", "detail": "…", "since": "2026-…Z"}`, or JSON null.
    public static func problem(_ problem: SyncProblem?) -> JSONValue {
        guard let problem else { return .null }
        return .object(["kind": .string(problem.kind.rawValue), "detail": .string(problem.detail), "since": .string(timestamp(problem.since))])
    }

    /// Whole seconds since the oldest queued row, or JSON null.
    public static func oldestAge(_ summary: QueueSummary?, now: Date) -> JSONValue {
        summary?.oldestQueuedAt.map { .integer(Int(now.timeIntervalSince($0).rounded(.down))) } ?? .null
    }

    /// An instant as technicians and monitoring read it, in UTC to the
    /// second: "2026-11-30T20:17:02Z".
    public static func timestamp(_ date: Date) -> String {
        let t = LocalTime(date, in: .utc)
        return "\(t.year.zeroPadded(4))-\(t.month.zeroPadded(2))-\(t.day.zeroPadded(2))"
            + "T\(t.hour.zeroPadded(2)):\(t.minute.zeroPadded(2)):\(t.second.zeroPadded(2))Z"
    }
}
