import FoundationEssentials

/// The receipt printer as the status bar and diagnostics see it, as values:
/// the view models word them.
public struct PrinterReport: Hashable, Sendable {
    /// What the printer said of itself the last time it was asked (DLE EOT).
    /// It mirrors Device's `PrinterCondition`, which TellerCore cannot
    /// import, plus what the terminal knows before and without an answer.
    public enum Condition: String, Hashable, Sendable {
        /// Not asked yet since the terminal started.
        case unknown
        case ready
        case paperNearEnd
        case paperOut
        case coverOpen
        /// The printer reports an error (a cutter jam, an overheated head).
        case error
        /// Offline, or it cannot be reached at all (unplugged, switched off, no answer).
        case offline
    }

    /// The printer as configured: "usb:/dev/usb/lp0", "tcp:192.0.2.7:9100".
    public var address: String
    public var condition: Condition
    /// Jobs not yet printed.
    public var waitingJobs: Int
    /// The last failure, in the technician's words (the device path or
    /// address and the errno); nil once a job printed after it.
    public var lastError: String?
    /// When the printer last answered a status request.
    public var lastAnswerAt: Date?

    public init(address: String, condition: Condition, waitingJobs: Int, lastError: String? = nil, lastAnswerAt: Date? = nil) {
        self.address = address
        self.condition = condition
        self.waitingJobs = waitingJobs
        self.lastError = lastError
        self.lastAnswerAt = lastAnswerAt
    }

    /// Whether a job can go out now.
    public var canPrint: Bool { condition == .ready || condition == .paperNearEnd }
}

/// The receipt printer's state, from the print spooler.
public protocol PrinterStatusPort: Sendable {
    /// The state as last seen; the spooler asks the printer, never this call.
    func printerReport() async -> PrinterReport
}
