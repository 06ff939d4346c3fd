import TellerControl
import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData
import TellerFeatures

/// `teller status`: the outbox state as one JSON object, for technicians,
/// `deploy/diagnose` and monitoring.
enum StatusCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        await printing(arguments, command: "status") { store, configuration in
            // As `teller metrics`: without the bank's time, the clock is judged against the build's date.
            let stamp = TrustedClock(floor: BuildInfo.buildDate).stamp()
            var fields = try await statusFields(store, now: stamp.date)
            fields["version"] = .string(BuildInfo.version)
            fields["terminal_id"] = configuration.terminalID.map { .string($0) } ?? .null
            fields["clock_verified"] = .bool(stamp.isVerified)
            fields["client_certificate"] = clientCertificateJSON(configuration.clientCertificateStatus(), now: stamp.date)
            return try JSONValue.object(fields).encoded(pretty: true) + Data("\n".utf8)
        }
    }

    /// Opens the configured store read-only, prints what `body` makes of
    /// it, and answers a refused database with status's exit codes.
    /// Shared with `teller metrics`.
    static func printing(_ arguments: [String], command: String,
                         _ body: (TellerStore, Configuration) async throws -> Data) async -> Int32 {
        await printing(arguments, command: command) { store, configuration in (try await body(store, configuration), 0) }
    }

    /// As ``printing(_:command:_:)``, with the exit code `body` gives when
    /// it printed (`teller journal verify` exits 1 on a broken chain).
    static func printing(_ arguments: [String], command: String,
                         _ body: (TellerStore, Configuration) async throws -> (output: Data, exitCode: Int32)) async -> Int32 {
        let options = CommandLineOptions(arguments)
        guard options.reportProblems(command: command) else { return 2 }
        let configuration = options.configuration
        do {
            // Read-only: creates, migrates and writes nothing, even to a sound database.
            let store = try TellerStore(readingOnly: configuration.dataDirectory, limits: configuration.limits())
            let (output, exitCode) = try await body(store, configuration)
            try FileDescriptor.standardOutput.writeAll(output)
            return exitCode
        } catch let refusal as DatabaseRefusal {
            Log.error("teller \(command): \(refusal)")
            Log.error("teller \(command): nothing was written: the directory and the file are exactly as they were.")
            return refusal.reason.kind.exitCode
        } catch TellerError.storage(let failure) {
            // The technician's detail (file, what is wrong, SQL), not the operator's "Not saved" sentence.
            Log.error("teller \(command): \(failure.detail)")
            return 1
        } catch {
            Log.error("teller \(command): \(error)")
            return 1
        }
    }

    /// The terminal's certificate for mutual TLS, or null when none is configured.
    static func clientCertificateJSON(_ certificate: ClientCertificateStatus?, now: Date) -> JSONValue {
        guard let certificate else { return .null }
        return .object([
            "subject": .string(certificate.subject), "issuer": .string(certificate.issuer),
            "not_after": .string(certificate.notAfter.formatted(.iso8601)),
            "days_left": .integer(certificate.daysLeft(at: now)), "warn_days": .integer(certificate.warnDays),
            "renewal_due": .bool(certificate.needsRenewal(at: now)), "valid_now": .bool(!certificate.isInvalid(at: now)),
        ])
    }

    /// The outbox part of the report (the terminal's own part is added by `run`).
    static func statusFields(_ store: TellerStore, now: Date) async throws -> [String: JSONValue] {
        let report = try await store.report()
        let summary = report.summary
        return [
            "sync_problem": problemJSON(report.problem),
            "needs_review": .array(report.needsReview.map { entry in
                var row: [String: JSONValue] = ["idempotency_key": .string(entry.key.rawValue), "amount": .string(entry.request.amount.description),
                                                "kind": .string(entry.request.kind.rawValue), "reason": .string(entry.lastError ?? "")]
                if case .needsReview(_, let acknowledged) = entry.state { row["acknowledged"] = .bool(acknowledged) }
                return .object(row)
            }),
            "database": .string(store.path),
            // Keyed by the stored words, which monitoring and deploy/lib/common.sh read.
            "counts": .object(Dictionary(uniqueKeysWithValues: summary.countsByState.map { ($0.key.rawValue, .integer($0.value)) })),
            "pending_count": .integer(summary.pendingCount),
            "pending": pendingJSON(summary),
            "oldest_queued_age_seconds": oldestAgeJSON(summary, now: now),
            "unacknowledged_rejections": .integer(summary.unacknowledgedRejections),
            "unacknowledged_reviews": .integer(summary.unacknowledgedReviews),
            "till_events_queued": .integer(report.tillEventsQueued),
        ]
    }

    /// Money not yet at the host, per currency: `{"EUR": {"minor_units": 1250, "amount": "12.50"}}`.
    /// Shared with `teller ctl status`.
    static func pendingJSON(_ summary: QueueSummary?) -> JSONValue {
        var pending: [String: JSONValue] = [:]
        for (currency, money) in summary?.pendingByCurrency ?? [:] {
            pending[currency.code] = .object(["minor_units": .integer(Int(money.minorUnits)), "amount": .string(money.decimalString)])
        }
        return .object(pending)
    }

    /// Why nothing goes out: `{"kind": "mismatch", "detail": "…", "since": "2026-…Z"}`, or JSON null.
    /// Shared with `teller ctl status`.
    static func problemJSON(_ problem: SyncProblem?) -> JSONValue {
        guard let problem else { return .null }
        return .object(["kind": .string(problem.kind.rawValue), "detail": .string(problem.detail), "since": .string(timestamp(problem.since))])
    }

    /// Whole seconds since the oldest queued row, or JSON null.
    static func oldestAgeJSON(_ summary: QueueSummary?, now: Date) -> JSONValue {
        summary?.oldestQueuedAt.map { .integer(Int(now.timeIntervalSince($0).rounded(.down))) } ?? .null
    }

    /// An instant as technicians and monitoring read it, in UTC to the
    /// second: "2026-11-30T20:17:02Z". Shared with `teller ctl status`.
    static func timestamp(_ date: Date) -> String {
        let t = LocalTime(date, in: .utc)
        return "\(t.year.zeroPadded(4))-\(t.month.zeroPadded(2))-\(t.day.zeroPadded(2))"
            + "T\(t.hour.zeroPadded(2)):\(t.minute.zeroPadded(2)):\(t.second.zeroPadded(2))Z"
    }
}
