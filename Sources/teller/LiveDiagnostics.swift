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
    private let sync: (any SyncStatusPort)?
    private let storageFailures: StorageFailureRecord

    init(configuration: Configuration, configurationPath: String, store: TellerStore, sync: (any SyncStatusPort)?,
         storageFailures: StorageFailureRecord, liveFacts: @escaping @Sendable () async -> [DiagnosticsLine]) {
        self.sync = sync
        self.storageFailures = storageFailures
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
        if let sync {
            let status = await sync.status()
            lines.append(DiagnosticsLine(label: "Clock", value: status.clockVerified
                ? "set"
                : "not set: the system clock says \(ISO8601DateFormatter().string(from: Date())); rows are stamped from the last time the terminal knows (flagged clock_unverified)"))
            let value = status.problem.map { "\($0.kind.rawValue) since \(ISO8601DateFormatter().string(from: $0.since)): \($0.detail)" }
                ?? (status.isOnline ? "none: the bank answers" : "none yet")
            lines.append(DiagnosticsLine(label: "Sync problem", value: value))
        }
        if let review = try? await store.needsReviewEntries(), !review.isEmpty {
            lines.append(DiagnosticsLine(label: "Needs review", value: review.map { "\($0.key.rawValue.prefix(8)): \($0.lastError ?? "")" }.joined(separator: "; ")))
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: store.path))?[.size] as? Int
        let size = bytes.map { "\($0 / 1024) KiB" } ?? "unknown"
        lines.append(DiagnosticsLine(label: "Database size", value: size))
        let check = (try? await store.quickCheckReport()) ?? "failed to run"
        lines.append(DiagnosticsLine(label: "quick_check", value: check))
        if let failure = await storageFailures.last {
            lines.append(DiagnosticsLine(label: "Last storage error", value: "\(failure.kind.rawValue): \(failure.detail)"))
        }
        lines += await liveFacts()
        return lines
    }

    func saveCalibration(_ matrix: [Double]) async throws(TellerError) {
        let value = matrix.map { String(format: "%.6f", $0) }.joined(separator: " ")
        do {
            try ConfigurationEditor.set("touch_calibration", to: value, in: configurationPath)
        } catch {
            throw .storage(detail: "cannot write \(configurationPath): \(error.localizedDescription)")
        }
    }
}
