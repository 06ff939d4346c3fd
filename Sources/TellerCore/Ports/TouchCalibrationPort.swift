/// How the touchscreen maps what the panel reports while the technician
/// calibrates it. The diagnostics view model drives it; the executable's
/// input loop implements it.
///
/// It is main-actor bound and synchronous on purpose: the view model and the
/// input loop both run on the main queue, and the switch must take effect
/// before the next touch is decoded, or the first calibration tap would be
/// measured through the old calibration.
@MainActor
public protocol TouchCalibrationPort: Sendable {
    /// From now on touches arrive as the panel reports them, with no
    /// calibration, so the solver measures the panel itself.
    func beginCalibration()
    /// From now on touches go through `matrix` (libinput's six numbers
    /// a b c d e f), which the configuration already holds.
    func apply(_ matrix: [Double])
    /// Calibration ended without a new matrix: the one in use before it
    /// applies again.
    func cancelCalibration()
}
