import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `teller metrics` prints what the running terminal keeps in
/// `metrics_file`, the client certificate's lines included (issue 42, item 2).
@Suite(.tags(.realProcess)) struct MetricsCommandTests {
    /// The metric lines by name and labels, without the ones that are
    /// measured at the moment of writing (ages, the clock's verdict) or
    /// move as the engine runs (its problem: none at the first write, offline after).
    static func stable(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            !line.hasPrefix("#") && !line.contains("_seconds_since") && !line.contains("_age_seconds") && !line.contains("clock_")
                && !line.hasPrefix("teller_sync_problem")
        }
    }

    @Test func theCommandPrintsTheRunningTerminalsLinesCertificateIncluded() async throws {
        let pki = TemporaryDirectory("teller-metrics-pki")
        let made = try await ChildProcess.run(ReferenceHost.repositoryRoot + "/deploy/reference-host/make-test-pki", [pki.path])
        try #require(made.status == 0, "make-test-pki: \(made.stderr)")
        let metricsFile = pki.file("teller.prom")
        // Nothing listens on port 9: the terminal runs offline, as a terminal in the field often does.
        let terminal = try TerminalProcess(host: URL(string: "https://127.0.0.1:9")!, configuration: [
            "ca_file = \(pki.file("ca.pem"))", "client_cert = \(pki.file("T-0001.pem"))", "client_key = \(pki.file("T-0001.key"))",
            "metrics_file = \(metricsFile)",
        ])
        try await terminal.start()
        defer { terminal.child?.killNow() }
        let written = await eventually(timeout: .seconds(60)) { FileManager.default.fileExists(atPath: metricsFile) }
        try #require(written, "no \(metricsFile)")
        let file = try String(contentsOfFile: metricsFile, encoding: .utf8)
        await terminal.stop()

        let command = try await ChildProcess.run(TestProducts.executable("teller"), ["metrics", "--config", terminal.directory.file("teller.conf")])
        #expect(command.status == 0, "\(command.stderr)")
        // make-test-pki's certificate is valid 30 days, within client_cert_warn_days (30): renewal due.
        #expect(command.stdout.contains(#"teller_client_certificate_renewal_due{terminal_id="T-0001"} 1"#), "\(command.stdout)")
        #expect(command.stdout.contains(#"teller_client_certificate_expiry_timestamp_seconds{terminal_id="T-0001"} "#), "\(command.stdout)")
        #expect(file.contains("teller_client_certificate_expiry_timestamp_seconds"), "\(file)")
        #expect(Self.stable(command.stdout) == Self.stable(file))
    }
}
