import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// The technician screen on the real terminal: the report comes from the
/// live parts, and calibration measures the panel with no calibration
/// applied, whatever teller.conf held before.
@Suite(.serialized, .tags(.realProcess, .referenceHost)) struct DiagnosticsTerminalTests {
    @Test func reportShowsLiveFactsAndCalibrationMeasuresTheRawPanel() async throws {
        let teller = TestProducts.executable("teller")
        let hashed = try await ChildProcess.run(teller, ["hash-pin"], stdin: Data("246810\n".utf8))
        #expect(hashed.status == 0, "\(hashed.stderr)")
        let host = try await ReferenceHost(directory: TemporaryDirectory("e2e-host")).start()
        // The panel as configured is off by 5 % to the right: calibrating must not see that.
        let terminal = try TerminalProcess(host: host.url, configuration: [
            "technician_pin_hash = \(hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines))",
            "touch_calibration = 1 0 0.05 0 1 0",
        ])
        try await terminal.start()
        defer { terminal.child?.killNow(); Task { await host.stop() } }
        try await terminal.signIn()
        #expect(try await terminal.waitForScreen("home"))

        try await terminal.tap("home.diagnostics")
        try await terminal.keys("diagnostics.pin", "246810")
        try await terminal.tap("diagnostics.open")
        #expect(try await terminal.waitForText("quick_check"))
        // A list row reads "value, label".
        let report = try await terminal.texts()
        for line in ["T-0001 · E2E, Terminal", "\(host.url.absoluteString), Host", "\(terminal.directory.file("data"))/teller.db, Database",
                     "set, Clock", "ok, quick_check", "offscreen 800x480 rotation 0, Display", "0°, Rotation"] {
            #expect(report.contains(line), "\(line) is not in \(report)")
        }

        // Each calibration cross, touched exactly where it is drawn (800x480).
        try await terminal.tap("diagnostics.calibrate")
        for (step, (x, y)) in [(80, 48), (720, 240), (240, 432)].enumerated() {
            if step > 0 { #expect(try await terminal.waitForText("cross \(step + 1) of 3")) }
            try await terminal.ctl("touch", String(x), String(y))
        }
        #expect(try await terminal.waitForText("Saved calibration"))
        let configuration = try String(contentsOfFile: terminal.directory.file("teller.conf"), encoding: .utf8)
        let saved = try #require(configuration.split(separator: "\n").last { $0.hasPrefix("touch_calibration") })
        let numbers = saved.split(separator: "=")[1].split(separator: " ").compactMap { Double($0) }
        // Taps measured through the old calibration would solve to its inverse, not to identity.
        #expect(numbers.count == 6)
        for (value, expected) in zip(numbers, [1.0, 0, 0, 0, 1, 0]) { #expect(abs(value - expected) < 0.01, "\(saved)") }
    }
}
