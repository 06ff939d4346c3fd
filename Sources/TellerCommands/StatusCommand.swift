import TellerControl
import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData
import SQLite

/// `teller status`: the outbox state as one JSON object, for technicians,
/// `deploy/diagnose` and monitoring.
public enum StatusCommand {
    /// `teller status --settled` and `--drained` when the answer is no.
    public static let notSettledExitCode: Int32 = 10

    public static func run(_ arguments: [String]) async -> Int32 {
        if let at = arguments.firstIndex(of: "--refusal-meaning") { return refusalMeaning(arguments.dropFirst(at + 1).first) }
        let question = Question(arguments)
        guard question != .several else {
            Log.error("teller status: --settled, --drained and --gate ask different questions; give one")
            return 2
        }
        if question != .none {
            return await printing(arguments, command: "status", switches: Question.switches) { store, configuration in
                let online = question == .gate ? runningTerminalOnline(configuration) : nil
                let answer = question.answer(try await store.summary(), online: online)
                return (Data((answer.line + "\n").utf8), answer.yes ? 0 : notSettledExitCode)
            }
        }
        return await printing(arguments, command: "status") { store, configuration in
            // As `teller metrics`: without the bank's time, the clock is judged against the build's date.
            let stamp = TrustedClock(floor: BuildInfo.buildDate).stamp()
            var fields = StatusJSON.outbox(try await store.report(), database: store.path, now: stamp.date)
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
    /// `teller status --refusal-meaning CODE`: the words for a database
    /// refusal's exit code (exit 0), so that the deploy scripts keep no table
    /// of their own; exit 1 and nothing printed for any other code.
    static func refusalMeaning(_ code: String?) -> Int32 {
        guard let code, let number = Int32(code) else {
            Log.error("teller status: --refusal-meaning needs an exit code")
            return 2
        }
        guard let kind = DatabaseRefusal.Kind(exitCode: number) else { return 1 }
        print(kind.meaning)
        return 0
    }

    /// Whether the terminal running on this configuration reaches the bank
    /// now (its sync engine's evidence, over the control socket), and why
    /// not when it cannot say.
    static func runningTerminalOnline(_ configuration: Configuration) -> (online: Bool, why: String) {
        do {
            let status = try ControlAnswer.result(of: ControlClient.send(ControlCommand.status.line, to: configuration.controlSocketPath, timeout: 5))
            guard case .bool(let online)? = status[StatusJSON.onlineKey] else {
                return (false, "the running terminal's status has no '\(StatusJSON.onlineKey)'")
            }
            return (online, online ? "online" : "offline")
        } catch {
            return (false, "the running terminal did not answer on \(configuration.controlSocketPath): \(error)")
        }
    }

    /// What a technician's script asks instead of reading the JSON: an exit
    /// code, and one line that says why.
    enum Question: Equatable {
        case none
        /// Nothing queued or sending, no rejection unacknowledged, no row
        /// that needs review: provision and update may go ahead.
        case settled
        /// Nothing queued or sending.
        case drained
        /// The health gate after an update (the image's and the rolling
        /// update's): the running terminal reaches the bank, or nothing is
        /// queued. Whether the service is up is systemd's to say.
        case gate
        case several

        static let switches: Set<String> = ["settled", "drained", "gate"]

        init(_ arguments: [String]) {
            let asked = [(Question.settled, "--settled"), (.drained, "--drained"), (.gate, "--gate")].filter { arguments.contains($0.1) }
            self = asked.count > 1 ? .several : asked.first?.0 ?? .none
        }

        func answer(_ summary: QueueSummary, online: (online: Bool, why: String)? = nil) -> (yes: Bool, line: String) {
            let pending = summary.pendingCount
            let rejected = summary.unacknowledgedRejections
            let review = summary.countsByState[.needsReview] ?? 0
            switch self {
            case .gate:
                if let online, online.online { return (true, "gate passed: the terminal is online") }
                if pending == 0 { return (true, "gate passed: nothing is queued (\(online?.why ?? "offline"))") }
                return (false, "gate not passed: \(online?.why ?? "offline"), and \(pending) transaction(s) are still queued")
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
