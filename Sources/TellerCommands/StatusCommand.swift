import TellerControl
import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData

/// `teller status`: the outbox state as one JSON object, for technicians,
/// `deploy/diagnose` and monitoring.
public enum StatusCommand {
    /// `teller status --settled` and `--drained` when the answer is no.
    public static let notSettledExitCode: Int32 = 10

    public static func run(_ arguments: [String]) async -> Int32 {
        let question = Question(arguments)
        guard question != .both else {
            Log.error("teller status: --settled and --drained ask different questions; give one")
            return 2
        }
        if question != .none {
            return await printing(arguments, command: "status", switches: ["settled", "drained"]) { store, _ in
                let answer = question.answer(try await store.summary())
                return (Data((answer.line + "\n").utf8), answer.yes ? 0 : notSettledExitCode)
            }
        }
        return await printing(arguments, command: "status") { store, configuration in
            // As `teller metrics`: without the bank's time, the clock is judged against the build's date.
            let stamp = TrustedClock(floor: BuildInfo.buildDate).stamp()
            var fields = try await StatusJSON.outbox(store, now: stamp.date)
            fields["version"] = .string(BuildInfo.version)
            fields["terminal_id"] = configuration.terminalID.map { .string($0) } ?? .null
            fields["clock_verified"] = .bool(stamp.isVerified)
            fields["client_certificate"] = StatusJSON.clientCertificate(configuration.clientCertificateStatus(), now: stamp.date)
            return try JSONValue.object(fields).encoded(pretty: true) + Data("\n".utf8)
        }
    }

    /// Opens the configured store read-only, prints what `body` makes of
    /// it, and answers a refused database with status's exit codes.
    /// Shared with `teller metrics`.
    public static func printing(_ arguments: [String], command: String,
                         _ body: (TellerStore, Configuration) async throws -> Data) async -> Int32 {
        await printing(arguments, command: command) { store, configuration in (try await body(store, configuration), 0) }
    }

    /// As ``printing(_:command:_:)``, with the exit code `body` gives when
    /// it printed (`teller journal verify` exits 1 on a broken chain).
    public static func printing(_ arguments: [String], command: String, switches: Set<String> = [],
                         _ body: (TellerStore, Configuration) async throws -> (output: Data, exitCode: Int32)) async -> Int32 {
        let options = CommandLineOptions(arguments, switches: switches)
        guard options.reportProblems(command: command) else { return 2 }
        let configuration = options.configuration
        do {
            // Read-only: creates, migrates and writes nothing, even to a sound database.
            let store = try TellerStore(readingOnly: configuration.dataDirectory, limits: configuration.limits())
            let (output, exitCode) = try await body(store, configuration)
            try StandardStream.output.writeAll(output)
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
}

extension StatusCommand {
    /// What a technician's script asks instead of reading the JSON: an exit
    /// code, and one line that says why.
    enum Question: Equatable {
        case none
        /// Nothing queued or sending, no rejection unacknowledged, no row
        /// that needs review: provision and update may go ahead.
        case settled
        /// Nothing queued or sending: the image's health gate.
        case drained
        case both

        init(_ arguments: [String]) {
            switch (arguments.contains("--settled"), arguments.contains("--drained")) {
            case (true, true): self = .both
            case (true, false): self = .settled
            case (false, true): self = .drained
            case (false, false): self = .none
            }
        }

        func answer(_ summary: QueueSummary) -> (yes: Bool, line: String) {
            let pending = summary.pendingCount
            let rejected = summary.unacknowledgedRejections
            let review = summary.countsByState[.needsReview] ?? 0
            switch self {
            case .drained:
                return pending == 0 ? (true, "drained: nothing is queued") : (false, "\(pending) transaction(s) are still queued")
            default:
                if pending == 0 && rejected == 0 && review == 0 {
                    return (true, "settled: nothing is queued, no rejection is unacknowledged and nothing needs review")
                }
                return (false, "\(pending) transaction(s) are still queued, \(rejected) rejection(s) are not acknowledged and \(review) need review")
            }
        }
    }
}
