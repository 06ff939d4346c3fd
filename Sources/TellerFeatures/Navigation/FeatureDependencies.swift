import FoundationEssentials
import TellerCore

/// The ports the features work through; the executable hands in live
/// implementations, tests hand in fakes.
public struct FeatureDependencies: Sendable {
    public let accounts: any AccountReading
    public let outbox: any OutboxPort
    public let sync: any SyncStatusPort
    public let session: any OperatorSessionPort
    public let diagnostics: (any DiagnosticsPort)?
    /// The operators' cash drawers; nil on a terminal without tills (the Till button is not shown).
    public let till: (any TillPort)?
    /// How the touchscreen follows a calibration in progress; nil where
    /// nothing watches (tests that do not ask).
    public let touchCalibration: (any TouchCalibrationPort)?
    public let clock: any WallClock
    public let terminal: TerminalIdentity
    public let time: TimeFormatting
    /// Seconds without a touch or key before the screen locks.
    public let idleLockAfter: TimeInterval
    /// The currency of the terminal's limits; amounts default to it.
    public let terminalCurrency: Currency
    /// The print queue (reprints); nil when no printer is configured.
    public let printQueue: (any PrintQueuePort)?
    /// The printer's state for the status bar and diagnostics; nil when no printer is configured.
    public let printer: (any PrinterStatusPort)?

    public init(accounts: any AccountReading, outbox: any OutboxPort, sync: any SyncStatusPort, session: any OperatorSessionPort,
                diagnostics: (any DiagnosticsPort)? = nil, till: (any TillPort)? = nil, touchCalibration: (any TouchCalibrationPort)? = nil,
                clock: any WallClock = SystemClock(), terminal: TerminalIdentity,
                time: TimeFormatting, idleLockAfter: TimeInterval = 120, terminalCurrency: Currency = .eur,
                printQueue: (any PrintQueuePort)? = nil, printer: (any PrinterStatusPort)? = nil) {
        self.accounts = accounts
        self.outbox = outbox
        self.sync = sync
        self.session = session
        self.diagnostics = diagnostics
        self.till = till
        self.touchCalibration = touchCalibration
        self.clock = clock
        self.terminal = terminal
        self.time = time
        self.idleLockAfter = idleLockAfter
        self.terminalCurrency = terminalCurrency
        self.printQueue = printQueue
        self.printer = printer
    }
}

extension FeatureDependencies {
    /// The wall-clock time for what a screen shows: its navigator's
    /// (``Navigator/now``), which redraws the screen as the clock moves.
    @MainActor
    func now(shownBy navigator: (any Navigator)?) -> Date { navigator?.now ?? clock.now() }
}
