/// The real-time status a DLE EOT n asks for (Epson ESC/POS reference,
/// "Transmit real-time status").
public enum StatusRequest: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// n = 1: online or offline, and the cash drawer's sensor.
    case printer = 1
    /// n = 2: why it is offline: cover open, paper end, an error.
    case offlineCause = 2
    /// n = 3: which error: the autocutter, recoverable or not.
    case errorCause = 3
    /// n = 4: the roll paper sensors: near end, end.
    case rollPaperSensor = 4

    public var description: String {
        switch self {
        case .printer: "DLE EOT 1 (printer status)"
        case .offlineCause: "DLE EOT 2 (offline cause)"
        case .errorCause: "DLE EOT 3 (error cause)"
        case .rollPaperSensor: "DLE EOT 4 (roll paper sensor)"
        }
    }
}
