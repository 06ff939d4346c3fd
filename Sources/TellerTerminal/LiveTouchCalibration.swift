import TellerConfiguration
import Device
import TellerCore

/// The calibration the input monitor applies, switched by the diagnostics
/// screen: none while the technician calibrates, so the solver sees what the
/// panel reports, and the new matrix once it is saved.
@MainActor
final class LiveTouchCalibration: TouchCalibrationPort {
    private let monitor: InputMonitor
    private let display: any Display
    /// The calibration in teller.conf, updated when the technician saves one.
    private var configured: AffineMatrix
    /// The calibration the input monitor applies now.
    private var active: AffineMatrix

    init(monitor: InputMonitor, display: any Display, configured: AffineMatrix) {
        self.monitor = monitor
        self.display = display
        self.configured = configured
        active = configured
    }

    func beginCalibration() { use(.identity) }

    func apply(_ matrix: [Double]) {
        configured = TerminalApp.calibration(matrix)
        use(configured)
    }

    func cancelCalibration() { use(configured) }

    private func use(_ calibration: AffineMatrix) {
        guard calibration != active else { return }
        active = calibration
        monitor.update(transform: display.transform, calibration: calibration)
    }
}
