/// What the technician's diagnostics screen needs from the terminal's
/// live parts (configuration, database, display, input), behind a
/// technician PIN whose Argon2id hash only the configuration holds.
public protocol DiagnosticsPort: Sendable {
    func verifyTechnicianPIN(_ pin: String) async -> Bool
    /// The facts as they are now; the diagnostics view model words them.
    func report() async -> DiagnosticsReport
    /// Stores a touch calibration matrix (libinput's six numbers) in the configuration.
    func saveCalibration(_ matrix: [Double]) async throws(TellerError)
    /// Switches every screen to `language` and stores it in the
    /// configuration, so a restart keeps it. Nothing changes when its
    /// catalog cannot be read or the configuration cannot be written.
    func switchLanguage(to language: Language) async throws(TellerError)
}
