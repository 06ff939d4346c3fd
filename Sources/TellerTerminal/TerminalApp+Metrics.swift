import TellerConfiguration
import SystemCalls
import Device
import FoundationEssentials
import TellerCore
import TellerData

extension TerminalApp {
    /// How often the file is rewritten with nothing changed, so the ages in it stay true.
    static let metricsRefreshMilliseconds = 15_000

    /// Keeps `metrics_file` current: after every enqueue and every sync
    /// event (coalesced by ``MetricsTextfile``), and on a timer for the
    /// ages and the clock. Returns the timer, or nil when no file is configured.
    func startMetricsFile() -> EventLoop.Token? {
        guard let path = configuration.metricsFile else { return nil }
        let store = live.store
        let clock = live.clock
        let terminalID = configuration.terminalID
        // Read once: the certificate in use is the one loaded at start (provision restarts the terminal).
        let certificate = configuration.clientCertificateStatus()
        let file = MetricsTextfile(path: path, render: {
            do {
                let report = try await store.report()
                let stamp = clock.stamp()
                return TerminalMetrics(report, terminalID: terminalID, version: BuildInfo.version, clockVerified: stamp.isVerified, now: stamp.date,
                                       clientCertificate: certificate)
                    .exposition
            } catch {
                Log.warning("metrics: \(error); \(path) keeps its last content")
                return nil
            }
        }, onFailure: { error in Log.warning("metrics: \(error)") })
        Log.info("metrics: \(path)")
        let engine = live.engine
        Task {
            await store.onEnqueue { _ in Task { await file.changed() } }
            await file.changed()
            guard let engine else { return }
            for await _ in await engine.events() { await file.changed() }
        }
        return loop.every(milliseconds: Self.metricsRefreshMilliseconds) { Task { await file.changed() } }
    }
}
