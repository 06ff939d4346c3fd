import TellerCore

/// Technician diagnostics behind the technician PIN: facts about the
/// terminal, a touch test that marks each touch, and a 3-point touch
/// calibration that writes the matrix to the configuration.
@MainActor
public final class DiagnosticsViewModel {
    public enum Mode: Hashable, Sendable {
        case locked
        case report
        case touchTest
        case calibrating(step: Int)
        case calibrated
    }

    private let dependencies: FeatureDependencies
    private weak var navigator: (any Navigator)?
    public private(set) var mode: Mode = .locked
    public private(set) var pinEntry = KeypadEntry(maximumLength: 12)
    public private(set) var lines: [DiagnosticsLine] = []
    public private(set) var message: String?
    /// Touch test marks, in screen pixels.
    public private(set) var touches: [(x: Int, y: Int)] = []
    private var measured: [(x: Double, y: Double)] = []
    public private(set) var matrix: [Double]?

    /// Where the calibration crosses are drawn, normalised to the screen.
    public static let calibrationTargets: [(x: Double, y: Double)] = [(0.1, 0.1), (0.9, 0.5), (0.3, 0.9)]

    init(dependencies: FeatureDependencies, navigator: any Navigator) {
        self.dependencies = dependencies
        self.navigator = navigator
    }

    public var title: String { "Technician" }
    public var pinPrompt: String { "Technician PIN" }
    public var pinFieldText: String { pinEntry.masked }
    public var unlockTitle: String { "Open" }
    public var touchTestTitle: String { "Touch test" }
    public var calibrateTitle: String { "Calibrate touch" }
    public var backTitle: String { "Back" }
    public var doneTitle: String { "Done" }
    public var keypad: KeypadText { KeypadText(name: "PIN pad", enterTitle: unlockTitle) }
    public var touchAreaLabel: String { "Touch test area" }
    public var calibrationAreaLabel: String { "Calibration target" }

    public var instruction: String? {
        switch mode {
        case .touchTest: "Touch anywhere: a dot marks each touch. Done ends the test."
        case .calibrating(let step): "Tap the centre of cross \(step + 1) of 3."
        case .calibrated: matrix.map { "Saved calibration: " + $0.map { String(format: "%.4f", $0) }.joined(separator: " ") }
        default: nil
        }
    }

    /// The current calibration target, normalised.
    public var currentTarget: (x: Double, y: Double)? {
        if case .calibrating(let step) = mode { return Self.calibrationTargets[step] }
        return nil
    }

    public func press(digit: Character) {
        pinEntry.append(digit)
        message = nil
        navigator?.invalidate()
    }

    public func backspace() {
        pinEntry.backspace()
        navigator?.invalidate()
    }

    public func unlock() async {
        guard let diagnostics = dependencies.diagnostics else { return }
        let accepted = await diagnostics.verifyTechnicianPIN(pinEntry.digits)
        pinEntry.clear()
        guard accepted else {
            message = "Wrong technician PIN."
            navigator?.invalidate()
            return
        }
        lines = await diagnostics.report()
        mode = .report
        navigator?.invalidate()
    }

    public func startTouchTest() {
        touches = []
        mode = .touchTest
        navigator?.invalidate()
    }

    public func touched(x: Int, y: Int) {
        guard mode == .touchTest else { return }
        touches.append((x, y))
        if touches.count > 50 { touches.removeFirst() }
        navigator?.invalidate()
    }

    public func startCalibration() {
        measured = []
        matrix = nil
        mode = .calibrating(step: 0)
        navigator?.invalidate()
    }

    /// A tap during calibration, as the panel reported it before any
    /// calibration (normalised 0...1).
    public func calibrationTap(rawX: Double, rawY: Double) async {
        guard case .calibrating(let step) = mode else { return }
        measured.append((rawX, rawY))
        if step < 2 {
            mode = .calibrating(step: step + 1)
            navigator?.invalidate()
            return
        }
        guard let solved = CalibrationSolver.matrix(targets: Self.calibrationTargets, measured: measured) else {
            message = "Those taps were too close to a line; try again."
            startCalibration()
            return
        }
        do throws(TellerError) {
            try await dependencies.diagnostics?.saveCalibration(solved)
            matrix = solved
            mode = .calibrated
            message = nil
        } catch {
            message = "Could not save the calibration: \(error.description)"
            mode = .report
        }
        navigator?.invalidate()
    }

    public func done() {
        switch mode {
        case .locked, .report: navigator?.pop()
        default:
            mode = .report
            navigator?.invalidate()
        }
    }
}

extension DiagnosticsViewModel: ScreenViewModel {
    public var screenName: String { "diagnostics" }
}
