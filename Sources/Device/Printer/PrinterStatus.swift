/// What a receipt printer said about itself in its answers to DLE EOT 1 to 4.
///
/// Each answer is one byte whose bits the Epson ESC/POS reference defines
/// per request; bits 1 and 4 are always set and bits 0 and 7 always clear,
/// which tells an answer from other bytes on the line (Automatic Status
/// Back, a late answer, noise). A status starts as "all clear" and each
/// answer read into it (``read(_:for:)``) sets the fields of its request.
public struct PrinterStatus: Hashable, Sendable {
    // DLE EOT 1
    /// Bit 3 clear: the printer takes data and prints.
    public var isOnline = true
    /// Bit 5: offline, and it comes back by itself (after a recoverable error).
    public var isWaitingForOnlineRecovery = false
    /// Bit 2: the cash drawer's kick-out connector reads high on pin 3
    /// (open or closed depends on the drawer).
    public var isDrawerSensorHigh = false

    // DLE EOT 2
    /// Bit 2: the roll paper cover is open.
    public var isCoverOpen = false
    /// Bit 5: printing stopped at the end of the paper.
    public var hasStoppedAtPaperEnd = false
    /// Bit 6: an error happened (DLE EOT 3 says which).
    public var hasError = false

    // DLE EOT 3
    /// Which errors, from DLE EOT 3.
    public var faults: PrinterFaults = []

    // DLE EOT 4
    /// Bits 2 and 3: the near-end sensor finds little paper left on the roll.
    public var isPaperNearEnd = false
    /// Bits 5 and 6: the end sensor finds no paper.
    public var isRollEmpty = false

    /// All clear: online, cover closed, paper present, no error.
    public init() {}

    /// A status from the answers to some or all of the four requests.
    /// - Throws: ``MalformedStatusAnswer`` for a byte that is no status answer.
    public init(answers: [StatusRequest: UInt8]) throws(MalformedStatusAnswer) {
        for request in StatusRequest.allCases {
            if let answer = answers[request] { try read(answer, for: request) }
        }
    }

    /// Whether `byte` has the fixed bits of every DLE EOT answer.
    public static func isStatusAnswer(_ byte: UInt8) -> Bool { byte & 0b1001_0011 == 0b0001_0010 }

    /// Sets the fields `request`'s answer carries from `byte`.
    /// - Throws: ``MalformedStatusAnswer`` when `byte` lacks the fixed bits.
    public mutating func read(_ byte: UInt8, for request: StatusRequest) throws(MalformedStatusAnswer) {
        guard Self.isStatusAnswer(byte) else { throw MalformedStatusAnswer(request: request, byte: byte) }
        func bit(_ n: UInt8) -> Bool { byte & (1 << n) != 0 }
        switch request {
        case .printer:
            isDrawerSensorHigh = bit(2)
            isOnline = !bit(3)
            isWaitingForOnlineRecovery = bit(5)
        case .offlineCause:
            isCoverOpen = bit(2)
            hasStoppedAtPaperEnd = bit(5)
            hasError = bit(6)
        case .errorCause:
            faults = []
            if bit(2) { faults.insert(.recoverable) }
            if bit(3) { faults.insert(.autocutter) }
            if bit(5) { faults.insert(.unrecoverable) }
            if bit(6) { faults.insert(.autoRecoverable) }
        case .rollPaperSensor:
            isPaperNearEnd = bit(2) || bit(3)
            isRollEmpty = bit(5) || bit(6)
        }
    }

    /// No paper to print on: the end sensor finds none, or printing stopped at the paper's end.
    public var isPaperOut: Bool { isRollEmpty || hasStoppedAtPaperEnd }

    /// The one thing to tell the operator, the most pressing first: an open
    /// cover (its paper sensor may also read empty), no paper, an error,
    /// offline for another reason, paper running low, or ready.
    public var condition: PrinterCondition {
        if isCoverOpen { return .coverOpen }
        if isPaperOut { return .paperOut }
        if hasError || !faults.isEmpty { return .error }
        if !isOnline { return .offline }
        if isPaperNearEnd { return .paperNearEnd }
        return .ready
    }
}

/// The errors DLE EOT 3 reports.
public struct PrinterFaults: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 2: an error that clearing its cause and DLE ENQ recover from.
    public static let recoverable = PrinterFaults(rawValue: 1 << 0)
    /// Bit 3: the autocutter jammed or failed.
    public static let autocutter = PrinterFaults(rawValue: 1 << 1)
    /// Bit 5: an error only a service can clear (the printer must be repaired).
    public static let unrecoverable = PrinterFaults(rawValue: 1 << 2)
    /// Bit 6: an error that clears itself, such as an overheated head.
    public static let autoRecoverable = PrinterFaults(rawValue: 1 << 3)
}

/// A receipt printer's state in one word, for the status bar and diagnostics.
public enum PrinterCondition: String, Hashable, Sendable {
    case ready
    case paperNearEnd
    case paperOut
    case coverOpen
    case error
    case offline
}

/// A byte that came back for a DLE EOT request and is not a status answer.
public struct MalformedStatusAnswer: Error, Hashable, Sendable, CustomStringConvertible {
    public let request: StatusRequest
    public let byte: UInt8

    public var description: String {
        "the answer to \(request) was \(hexadecimal: [byte]), not a status byte (bits 1 and 4 set, 0 and 7 clear)"
    }
}

extension String.StringInterpolation {
    /// Bytes as a technician reads them off a line analyser: "0x12 0x1A".
    mutating func appendInterpolation(hexadecimal bytes: some Sequence<UInt8>) {
        let digits = Array("0123456789ABCDEF")
        appendLiteral(bytes.map { "0x\(digits[Int($0 >> 4)])\(digits[Int($0 & 0xF)])" }.joined(separator: " "))
    }
}
