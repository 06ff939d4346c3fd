import Foundation
import TellerCore
import TellerData

/// The technician screen's view of the running terminal.
actor LiveDiagnostics: DiagnosticsPort {
    private let configuration: Configuration
    private let configurationPath: String
    private let store: TellerStore
    private let hasher = PINHasher.interactive
    /// Facts only the main loop knows (display mode, input devices), read on demand.
    private let liveFacts: @Sendable () async -> [DiagnosticsLine]

    init(configuration: Configuration, configurationPath: String, store: TellerStore, liveFacts: @escaping @Sendable () async -> [DiagnosticsLine]) {
        self.configuration = configuration
        self.configurationPath = configurationPath
        self.store = store
        self.liveFacts = liveFacts
    }

    func verifyTechnicianPIN(_ pin: String) async -> Bool {
        guard let hash = configuration.technicianPINHash else { return false }
        return hasher.matches(pin, verifier: hash)
    }

    func report() async -> [DiagnosticsLine] {
        var lines = [
            DiagnosticsLine(label: "Version", value: BuildInfo.version),
            DiagnosticsLine(label: "Terminal", value: [configuration.terminalID ?? "not provisioned", configuration.branch].filter { !$0.isEmpty }.joined(separator: " · ")),
            DiagnosticsLine(label: "Host", value: configuration.hostURL?.absoluteString ?? "none (offline only)"),
            DiagnosticsLine(label: "Database", value: store.path),
        ]
        let bytes = (try? FileManager.default.attributesOfItem(atPath: store.path))?[.size] as? Int
        let size = bytes.map { "\($0 / 1024) KiB" } ?? "unknown"
        lines.append(DiagnosticsLine(label: "Database size", value: size))
        let check = (try? await store.quickCheckReport()) ?? "failed to run"
        lines.append(DiagnosticsLine(label: "quick_check", value: check))
        lines += await liveFacts()
        return lines
    }

    func saveCalibration(_ matrix: [Double]) async throws(TellerError) {
        let value = matrix.map { String(format: "%.6f", $0) }.joined(separator: " ")
        do {
            try ConfigurationEditor.set("touch_calibration", to: value, in: configurationPath)
        } catch {
            throw .storage("cannot write \(configurationPath): \(error.localizedDescription)")
        }
    }
}
