import TellerControl
import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData

/// `teller status`: the outbox state as one JSON object, for technicians,
/// `deploy/diagnose` and monitoring.
public enum StatusCommand {
    public static func run(_ arguments: [String]) async -> Int32 {
        await printing(arguments, command: "status") { store, configuration in
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
    public static func printing(_ arguments: [String], command: String,
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
}
