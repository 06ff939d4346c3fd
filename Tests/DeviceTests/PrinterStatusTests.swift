import Testing
@testable import Device

/// Each bit of each DLE EOT answer, as the Epson ESC/POS reference defines it.
@Suite("Printer status (DLE EOT answers)")
struct PrinterStatusTests {
    /// The fixed bits every answer carries: 1 and 4 set, 0 and 7 clear.
    static let clear: UInt8 = 0x12

    /// One answer byte and the only field it may change from all clear.
    static let bits: [(request: StatusRequest, bit: UInt8, expected: PrinterStatus)] = {
        func status(_ change: (inout PrinterStatus) -> Void) -> PrinterStatus {
            var status = PrinterStatus()
            change(&status)
            return status
        }
        return [
            (.printer, 2, status { $0.isDrawerSensorHigh = true }),
            (.printer, 3, status { $0.isOnline = false }),
            (.printer, 5, status { $0.isWaitingForOnlineRecovery = true }),
            (.printer, 6, PrinterStatus()),  // the feed button: nothing to tell the operator
            (.offlineCause, 2, status { $0.isCoverOpen = true }),
            (.offlineCause, 3, PrinterStatus()),  // paper fed by the button
            (.offlineCause, 5, status { $0.hasStoppedAtPaperEnd = true }),
            (.offlineCause, 6, status { $0.hasError = true }),
            (.errorCause, 2, status { $0.faults = .recoverable }),
            (.errorCause, 3, status { $0.faults = .autocutter }),
            (.errorCause, 5, status { $0.faults = .unrecoverable }),
            (.errorCause, 6, status { $0.faults = .autoRecoverable }),
            (.rollPaperSensor, 2, status { $0.isPaperNearEnd = true }),
            (.rollPaperSensor, 3, status { $0.isPaperNearEnd = true }),
            (.rollPaperSensor, 5, status { $0.isRollEmpty = true }),
            (.rollPaperSensor, 6, status { $0.isRollEmpty = true }),
        ]
    }()

    @Test(arguments: bits.indices)
    func eachBitSetsItsFieldAndNoOther(_ index: Int) throws {
        let entry = Self.bits[index]
        let status = try PrinterStatus(answers: [entry.request: Self.clear | 1 << entry.bit])
        #expect(status == entry.expected, "\(entry.request) bit \(entry.bit)")
    }

    @Test func allClearAnswersMeanReady() throws {
        let answers = Dictionary(uniqueKeysWithValues: StatusRequest.allCases.map { ($0, Self.clear) })
        let status = try PrinterStatus(answers: answers)
        #expect(status == PrinterStatus())
        #expect(status.condition == .ready)
        #expect(!status.isPaperOut)
    }

    /// What a TM-T20 out of paper answers: offline (1), stopped at the
    /// paper end (2), and both roll sensors empty (4).
    @Test func aPrinterOutOfPaper() throws {
        let status = try PrinterStatus(answers: [.printer: 0x1A, .offlineCause: 0x32, .errorCause: 0x12, .rollPaperSensor: 0x7E])
        #expect(!status.isOnline)
        #expect(status.hasStoppedAtPaperEnd && status.isRollEmpty && status.isPaperNearEnd)
        #expect(status.isPaperOut)
        #expect(status.condition == .paperOut)
    }

    /// The most pressing condition wins: an open cover over the empty roll
    /// its sensor then sees, paper out over the offline it causes.
    static let conditions: [(answers: [StatusRequest: UInt8], condition: PrinterCondition)] = [
        ([.printer: 0x1A, .offlineCause: 0x16, .rollPaperSensor: 0x72], .coverOpen),
        ([.printer: 0x1A, .offlineCause: 0x32], .paperOut),
        ([.printer: 0x1A, .offlineCause: 0x52, .errorCause: 0x1A], .error),
        ([.errorCause: 0x32], .error),
        ([.printer: 0x1A], .offline),
        ([.rollPaperSensor: 0x1E], .paperNearEnd),
    ]

    @Test(arguments: conditions.indices)
    func conditionNamesTheMostPressingState(_ index: Int) throws {
        let entry = Self.conditions[index]
        #expect(try PrinterStatus(answers: entry.answers).condition == entry.condition)
    }

    /// A byte without the fixed bits is not a status answer, whatever it says.
    static let malformed: [UInt8] = [0x00, 0xFF, 0x10, 0x02, 0x13, 0x11, 0x92, 0x93]

    @Test(arguments: malformed)
    func aByteWithoutTheFixedBitsIsRefused(_ byte: UInt8) throws {
        #expect(!PrinterStatus.isStatusAnswer(byte))
        let attempt = Result<PrinterStatus, MalformedStatusAnswer> { () throws(MalformedStatusAnswer) in try PrinterStatus(answers: [.rollPaperSensor: byte]) }
        let failure = try #require(attempt.failure)
        #expect(failure == MalformedStatusAnswer(request: .rollPaperSensor, byte: byte))
    }
}
