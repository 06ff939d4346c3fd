/// What the technician's diagnostics screen needs from the terminal's
/// live parts (configuration, database, display, input), behind a
/// technician PIN whose Argon2id hash only the configuration holds.
public protocol DiagnosticsPort: Sendable {
    func verifyTechnicianPIN(_ pin: String) async -> Bool
    /// Labelled facts, in display order: version, terminal and host,
    /// database path, size and quick_check, display mode and rotation,
    /// input devices.
    func report() async -> [DiagnosticsLine]
    /// Stores a touch calibration matrix (libinput's six numbers) in the configuration.
    func saveCalibration(_ matrix: [Double]) async throws(TellerError)
}

public struct DiagnosticsLine: Hashable, Sendable {
    public let label: String
    public let value: String

    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}
