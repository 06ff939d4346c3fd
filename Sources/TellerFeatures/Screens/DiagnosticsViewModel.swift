import Observation
import TellerCore

/// Technician diagnostics behind the technician PIN: facts about the
/// terminal in the technician's words, a touch test that marks each touch,
/// and a 3-point touch calibration that writes the matrix to the
/// configuration and has the touchscreen use it at once.
@MainActor @Observable
public final class DiagnosticsViewModel {
    public enum Mode: Hashable, Sendable {
        case locked
        case report
        case touchTest
        case calibrating(step: Int)
        case calibrated
    }

    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public private(set) var mode: Mode = .locked
    public private(set) var pinEntry = KeypadEntry(maximumLength: 12)
    /// The report, worded from ``DiagnosticsReport`` in display order.
    public private(set) var lines: [ReviewViewModel.Line] = []
    public private(set) var message: String?
    /// Touch test marks, in screen pixels.
    public private(set) var touches: [(x: Int, y: Int)] = []
    private var measured: [(x: Double, y: Double)] = []
    /// The language the terminal speaks, as of this screen's last switch:
    /// state, so that a switch redraws the screen.
    private var language = Localization.language
    public private(set) var matrix: [Double]?

    /// Where the calibration crosses are drawn, normalised to the screen.
    public static let calibrationTargets: [(x: Double, y: Double)] = [(0.1, 0.1), (0.9, 0.5), (0.3, 0.9)]

    init(dependencies: FeatureDependencies, navigator: any Navigator) {
        self.dependencies = dependencies
        self.navigator = navigator
    }

    // The `#if compiler(>=6.2)` below is for the arm64 build's Swift 6.0.3
    // (tools/build-arm64).
    // Under it, `MainActor.assumeIsolated` stops the process if a release
    // mid-calibration ever comes off the main actor, rather than giving the
    // touchscreen its calibration back from another thread. The #else goes
    // once that build's compiler is 6.2 or later.

    /// A screen that goes away mid-calibration (the idle lock, signing out)
    /// gives the touchscreen its calibration back.
    /// Swift 6.2 runs this deinit on the main actor. Swift 6.0 (Debian 13's
    /// compiler, which builds for arm64) has no `isolated deinit`; there the
    /// deinit runs where the last reference went, which is the main queue
    /// for a view model the screens own, and it says so before it calls.
    #if compiler(>=6.2)
    isolated deinit {
        if case .calibrating = mode { dependencies.touchCalibration?.cancelCalibration() }
    }
    #else
    deinit {
        // `_mode` is the stored value behind the observed `mode`, whose
        // getter belongs to the main actor: a plain deinit may read only storage.
        guard case .calibrating = _mode, let port = dependencies.touchCalibration else { return }
        MainActor.assumeIsolated { port.cancelCalibration() }
    }
    #endif

    public var title: String { tr("Technician") }
    public var pinPrompt: String { tr("Technician PIN") }
    public var pinFieldText: String { pinEntry.masked }
    public var unlockTitle: String { tr("Open") }
    public var touchTestTitle: String { tr("Touch test") }
    public var calibrateTitle: String { tr("Calibrate touch") }
    public var backTitle: String { tr("Back") }
    public var doneTitle: String { tr("Done") }
    public var keypad: KeypadText { KeypadText(name: tr("PIN pad"), enterTitle: unlockTitle) }
    public var touchAreaLabel: String { tr("Touch test area") }
    public var calibrationAreaLabel: String { tr("Calibration target") }

    public var instruction: String? {
        switch mode {
        case .touchTest: tr("Touch anywhere: a dot marks each touch. Done ends the test.")
        case .calibrating(let step): tr("Tap the centre of cross {number} of 3.", ["number": Localization.digits(String(step + 1))])
        case .calibrated: matrix.map { tr("Saved calibration: ") + $0.map { $0.fixed(decimals: 4) }.joined(separator: " ") }
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
    }

    public func backspace() {
        pinEntry.backspace()
    }

    public func unlock() async {
        guard let diagnostics = dependencies.diagnostics else { return }
        let accepted = await diagnostics.verifyTechnicianPIN(pinEntry.digits)
        pinEntry.clear()
        guard accepted else {
            message = tr("Wrong technician PIN.")
            return
        }
        lines = Self.lines(for: await diagnostics.report(), dependencies)
        mode = .report
    }

    /// The report as the technician reads it. Problem and failure kinds keep
    /// their log names and instants are ISO 8601 in UTC, so the screen can
    /// be compared with the log and `teller status`. The unprovisioned
    /// terminal's screen shows the same facts.
    static func lines(for report: DiagnosticsReport, _ dependencies: FeatureDependencies) -> [ReviewViewModel.Line] {
        typealias Line = ReviewViewModel.Line
        let time = dependencies.time
        let terminal = dependencies.terminal
        var lines = [
            Line(label: tr("Version"), value: Localization.leftToRight(report.version)),
            Line(label: tr("Terminal"), value: [terminal.terminalID.map(Localization.leftToRight) ?? tr("not provisioned"), Localization.verbatim(terminal.branch)]
                .filter { !$0.isEmpty }.joined(separator: " · ")),
            Line(label: tr("Host"), value: report.host.map { Localization.leftToRight($0.absoluteString) } ?? tr("none (offline only)")),
        ]
        // Beside the host it is for: the bank refuses it once it is not valid.
        if let certificate = report.clientCertificate {
            let now = report.systemClock
            let subject = Localization.leftToRight(certificate.subject), date = time.timestamp(certificate.notAfter)
            let days = Localization.format.number(max(certificate.daysLeft(at: now), 0))
            let value = certificate.isInvalid(at: now)
                ? tr("{subject}: not valid now; the bank refuses it: install a new one", ["subject": subject])
                : certificate.needsRenewal(at: now)
                    ? tr("{subject}: expires {date}, in {days} days: renew it now", ["subject": subject, "date": date, "days": days])
                    : tr("{subject}, valid until {date} ({days} days)", ["subject": subject, "date": date, "days": days])
            lines.append(Line(label: tr("Client certificate"), value: value))
        }
        lines.append(Line(label: tr("Database"), value: Localization.leftToRight(report.databasePath)))
        if let sync = report.sync {
            lines.append(Line(label: tr("Clock"), value: sync.clockVerified
                ? tr("set")
                : tr("not set: the system clock says {time}; rows are stamped from the last time the terminal knows (flagged clock_unverified)",
                     ["time": time.timestamp(report.systemClock)])))
            let problem = sync.problem.map {
                tr("{kind} since {time}: {detail}", ["kind": Localization.leftToRight($0.kind.rawValue), "time": time.timestamp($0.since), "detail": Localization.verbatim($0.detail)])
            }
            lines.append(Line(label: tr("Sync problem"), value: problem ?? (sync.isOnline ? tr("none: the bank answers") : tr("none yet"))))
        }
        if !report.needsReview.isEmpty {
            lines.append(Line(label: tr("Needs review"), value: report.needsReview.map { Localization.verbatim("\($0.key.rawValue.prefix(8)): \($0.lastError ?? "")") }.joined(separator: "; ")))
        }
        lines.append(Line(label: tr("Database size"), value: report.databaseBytes.map { tr("{size} KiB", ["size": Localization.digits(String($0 / 1024))]) } ?? tr("unknown")))
        lines.append(Line(label: tr("quick_check"), value: report.quickCheck.map(Localization.verbatim) ?? tr("failed to run")))
        if let failure = report.lastStorageFailure {
            lines.append(Line(label: tr("Last storage error"), value: Localization.verbatim("\(failure.kind.rawValue): \(failure.detail)")))
        }
        if let printer = report.printer {
            lines.append(Line(label: tr("Printer"), value: tr("{address}: {condition}, {count} waiting", [
                "address": Localization.leftToRight(printer.address), "condition": Self.conditionText(printer.condition),
                "count": Localization.format.number(printer.waitingJobs),
            ])))
            if let error = printer.lastError { lines.append(Line(label: tr("Printer error"), value: Localization.verbatim(error))) }
        }
        if let hardware = report.hardware {
            lines.append(Line(label: tr("Display"), value: Localization.verbatim(hardware.display)))
            lines.append(Line(label: tr("Rotation"), value: Localization.digits("\(hardware.rotationDegrees)°")))
            if hardware.inputs.isEmpty { lines.append(Line(label: tr("Input"), value: tr("no devices"))) }
            for device in hardware.inputs { lines.append(Line(label: tr("Input"), value: Localization.verbatim("\(device.name) (\(device.kind.rawValue)) \(device.path)"))) }
        }
        return lines
    }

    /// The printer's condition as the technician reads it.
    static func conditionText(_ condition: PrinterReport.Condition) -> String {
        switch condition {
        case .unknown: tr("not asked yet")
        case .ready: tr("ready")
        case .paperNearEnd: tr("paper low")
        case .paperOut: tr("out of paper")
        case .coverOpen: tr("cover open")
        case .error: tr("error")
        case .offline: tr("offline or unreachable")
        }
    }

    public func startTouchTest() {
        touches = []
        mode = .touchTest
    }

    public func touched(x: Int, y: Int) {
        guard mode == .touchTest else { return }
        touches.append((x, y))
        if touches.count > 50 { touches.removeFirst() }
    }

    public func startCalibration() {
        measured = []
        matrix = nil
        mode = .calibrating(step: 0)
        dependencies.touchCalibration?.beginCalibration()
    }

    /// A tap during calibration, as the panel reported it before any
    /// calibration (normalised 0...1).
    public func calibrationTap(rawX: Double, rawY: Double) async {
        guard case .calibrating(let step) = mode else { return }
        measured.append((rawX, rawY))
        if step < 2 {
            mode = .calibrating(step: step + 1)
            return
        }
        guard let solved = CalibrationSolver.matrix(targets: Self.calibrationTargets, measured: measured) else {
            message = tr("Those taps were too close to a line; try again.")
            startCalibration()
            return
        }
        do throws(TellerError) {
            try await dependencies.diagnostics?.saveCalibration(solved)
            matrix = solved
            mode = .calibrated
            message = nil
            dependencies.touchCalibration?.apply(solved)
        } catch {
            message = tr("Could not save the calibration: {problem}", ["problem": ErrorText.text(error)])
            mode = .report
            dependencies.touchCalibration?.cancelCalibration()
        }
    }

    /// The languages the technician can switch to, in their own names.
    public var languages: [(language: Language, title: String, isCurrent: Bool)] {
        Language.all.map { ($0, Localization.verbatim($0.nativeName), $0 == language) }
    }

    public var languageTitle: String { tr("Language") }

    /// Switches every screen to `language` at once and keeps it in the configuration.
    public func switchLanguage(to language: Language) async {
        guard let diagnostics = dependencies.diagnostics, language != Localization.language else { return }
        do throws(TellerError) {
            try await diagnostics.switchLanguage(to: language)
            self.language = Localization.language
            message = nil
            lines = Self.lines(for: await diagnostics.report(), dependencies)
        } catch {
            message = tr("Could not switch the language: {problem}", ["problem": ErrorText.text(error)])
        }
    }

    public func done() {
        if case .calibrating = mode { dependencies.touchCalibration?.cancelCalibration() }
        switch mode {
        case .locked, .report: navigator?.pop()
        default:
            mode = .report
        }
    }
}

extension DiagnosticsViewModel: ScreenViewModel {
    public var screenName: String { "diagnostics" }
    public var screenKind: ScreenKind { .diagnostics(self) }
}
