import FoundationEssentials
import TellerCore
import TellerData

/// `teller metrics`: once, the text the running terminal keeps in
/// `metrics_file`, for a cron job or a technician (docs/deploy.md, "Fleet: metrics").
public enum MetricsCommand {
    public static func run(_ arguments: [String]) async -> Int32 {
        await StatusCommand.printing(arguments, command: "metrics") { store, configuration in
            // Without the bank's time, this process can judge the clock only against the build's date.
            let stamp = TrustedClock(floor: BuildInfo.buildDate).stamp()
            // The certificate as the running terminal reports it (TerminalApp.startMetricsFile): the same lines in both.
            let metrics = TerminalMetrics(try await store.report(), terminalID: configuration.terminalID, version: BuildInfo.version,
                                          clockVerified: stamp.isVerified, now: stamp.date, clientCertificate: configuration.clientCertificateStatus())
            return Data(metrics.exposition.utf8)
        }
    }
}
