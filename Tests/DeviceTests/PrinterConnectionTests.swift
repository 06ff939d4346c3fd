import Glibc
import PrinterTestSupport
import Testing
@testable import Device
import ProcessTestSupport

/// The three connections over real lines: TCP to a fake printer listening
/// on the loopback, a serial port that is a pseudo-terminal, and a
/// character device (the same pseudo-terminal, held raw).
@Suite("Printer connections", .tags(.virtualPrinter)) struct PrinterConnectionTests {
    /// A printer out of paper, as a TM-T20 answers DLE EOT 1 to 4.
    static let outOfPaper: [UInt8: UInt8] = [1: 0x1A, 2: 0x32, 3: 0x12, 4: 0x7E]
    static let ready: [UInt8: UInt8] = [1: 0x12, 2: 0x12, 3: 0x12, 4: 0x12]
    static let quick = PrinterTimeouts(connect: .seconds(2), writeStall: .milliseconds(300), statusAnswer: .milliseconds(300))

    /// A slip whose dots hold a DLE EOT 1 as image data, which a real
    /// printer answers too: the next status request must not take that answer for its own.
    static var slip: [UInt8] {
        var raster = MonochromeRaster(width: 576, height: 3)
        for (index, byte) in [UInt8(0x10), 0x04, 0x01].enumerated() {
            for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 { raster[index * 8 + bit, 1] = true }
        }
        return EscPosEncoder.slip(raster, paper: .millimetres80)
    }

    // MARK: TCP

    @Test func aNetworkPrinterTakesASlipAndReportsPaperOut() throws {
        // The drawer's sensor high: an answer to DLE EOT 1 that would read as
        // "cover open" if it were taken for the answer to DLE EOT 2.
        let printer = try FakePrinter.network(answers: [1: 0x16, 2: 0x12, 3: 0x12, 4: 0x12])
        defer { printer.stop() }
        let connection = try NetworkPrinterConnection(host: "127.0.0.1", port: printer.port, timeouts: Self.quick)
        #expect(connection.address == "127.0.0.1:\(printer.port)")
        try connection.write(Self.slip)
        #expect(printer.waitForBytes(Self.slip.count))
        let decoded = try EscPosDecoder(paperDots: 576).decode(printer.received)
        #expect(decoded.slips.count == 1 && decoded.slips.first?.cut == .partial)
        #expect(decoded.slips.first?[3, 1] == true && decoded.slips.first?[13, 1] == true)

        // The printer answered the DLE EOT 1 in the image too; that answer is not taken for the next.
        var drawerHigh = PrinterStatus()
        drawerHigh.isDrawerSensorHigh = true
        #expect(try connection.status() == drawerHigh)
        printer.answers = Self.outOfPaper
        let status = try connection.status()
        #expect(status.isPaperOut && !status.isOnline)
        #expect(status.condition == .paperOut)
        // The four requests went out in order, after the slip. The fake
        // answers a request before it counts its bytes, so wait for both
        // status calls' 24 bytes before reading them.
        #expect(printer.waitForBytes(Self.slip.count + 24))
        #expect(Array(printer.received.suffix(12)) == [0x10, 4, 1, 0x10, 4, 2, 0x10, 4, 3, 0x10, 4, 4])
    }

    @Test func aMissingAnswerIsATypedTimeoutNamingTheAddress() throws {
        let printer = try FakePrinter.network(answers: [1: 0x12])
        defer { printer.stop() }
        let connection = try NetworkPrinterConnection(host: "127.0.0.1", port: printer.port, timeouts: Self.quick)
        #expect(try connection.requestStatus(.printer) == 0x12)
        let attempt = Result<UInt8, PrinterError> { () throws(PrinterError) in try connection.requestStatus(.rollPaperSensor) }
        let failure = try #require(attempt.failure)
        #expect(failure.kind == .noStatusAnswer(.rollPaperSensor, after: .milliseconds(300)))
        #expect(failure.description.hasPrefix("127.0.0.1:\(printer.port): no answer to DLE EOT 4"))
    }

    @Test func anAnswerWithoutTheFixedBitsIsMalformed() throws {
        let printer = try FakePrinter.network(answers: [2: 0x00])
        defer { printer.stop() }
        let connection = try NetworkPrinterConnection(host: "127.0.0.1", port: printer.port, timeouts: Self.quick)
        let attempt = Result<UInt8, PrinterError> { () throws(PrinterError) in try connection.requestStatus(.offlineCause) }
        let failure = try #require(attempt.failure)
        #expect(failure.kind == .malformedStatusAnswer(.offlineCause, [0x00]))
    }

    @Test func nothingListeningIsConnectionRefused() throws {
        // A port that was free a moment ago: bind one, note it, release it.
        let printer = try FakePrinter.network(answers: [:])
        let port = printer.port
        printer.stop()
        let attempt = Result<NetworkPrinterConnection, PrinterError> { () throws(PrinterError) in
            try NetworkPrinterConnection(host: "127.0.0.1", port: port, timeouts: Self.quick)
        }
        let failure = try #require(attempt.failure)
        #expect(failure.kind == .connectionRefused)
        #expect(failure.address == "127.0.0.1:\(port)")
        #expect(failure.description.contains("Connection refused"), "\(failure)")
    }

    @Test func anUnknownHostIsUnresolvable() throws {
        let attempt = Result<NetworkPrinterConnection, PrinterError> { () throws(PrinterError) in
            try NetworkPrinterConnection(host: "printer.invalid", timeouts: Self.quick)
        }
        let failure = try #require(attempt.failure)
        if case .unresolvable = failure.kind {} else { Issue.record("expected unresolvable, got \(failure)") }
        #expect(failure.address == "printer.invalid:9100")
    }

    /// A printer that takes no more data (out of paper, its buffer full):
    /// the kernel queue fills, and the write gives up after writeStall.
    @Test func aPrinterThatStopsTakingDataTimesTheWriteOut() throws {
        // A listener that never accepts: the kernel completes the
        // connection and buffers what comes until its queues are full.
        let listener = socket(AF_INET, 1 | O_CLOEXEC, 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(listening)
        let connection = try NetworkPrinterConnection(host: "127.0.0.1", port: UInt16(bigEndian: address.sin_port), timeouts: Self.quick)
        let started = ContinuousClock.now
        let attempt = Result<Void, PrinterError> { () throws(PrinterError) in
            try connection.write([UInt8](repeating: 0, count: 64 << 20))
        }
        let failure = try #require(attempt.failure)
        #expect(failure.kind == .timedOut(operation: "write", after: .milliseconds(300)))
        #expect(started.duration(to: .now) < .seconds(30))
    }

    // MARK: Serial

    @Test func aSerialPrinterIsSetRaw8N1AtItsBaudAndAnswers() throws {
        let printer = try FakePrinter.serial(answers: Self.outOfPaper)
        defer { printer.stop() }
        let connection = try SerialPrinterConnection(path: printer.path, baud: 19200, timeouts: Self.quick)
        #expect(connection.address == printer.path)

        // The pseudo-terminal's settings are the port's, whoever reads them.
        let fd = open(printer.path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        var settings = termios()
        try #require(tcgetattr(fd, &settings) == 0)
        #expect(cfgetospeed(&settings) == speed_t(B19200))
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & tcflag_t(PARENB | CSTOPB) == 0)
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(settings.c_oflag & tcflag_t(OPOST) == 0)
        #expect(settings.c_iflag & tcflag_t(ICRNL | IXON) == 0)

        // LF (0x0A) and CR pass as they are: no translation on the way.
        let bytes = Self.slip + [0x0A, 0x0D]
        try connection.write(bytes)
        #expect(printer.waitForBytes(bytes.count))
        #expect(printer.received == bytes)
        let status = try connection.status()
        #expect(status.condition == .paperOut)
    }

    @Test func aRateThePortDoesNotTakeIsRefused() throws {
        let attempt = Result<SerialPrinterConnection, PrinterError> { () throws(PrinterError) in
            try SerialPrinterConnection(path: "/dev/ttyS0", baud: 12345)
        }
        let failure = try #require(attempt.failure)
        #expect(failure.kind == .unsupportedBaudRate(12345))
        #expect(failure.description.hasPrefix("/dev/ttyS0: the port does not take 12345 baud"))
    }

    @Test func aFileThatIsNoTerminalIsNotASerialPort() throws {
        let attempt = Result<SerialPrinterConnection, PrinterError> { () throws(PrinterError) in
            try SerialPrinterConnection(path: "/dev/null", baud: 9600)
        }
        let failure = try #require(attempt.failure)
        #expect(failure.kind == .notASerialPort)
        #expect(failure.errno == .notATerminalOrDevice)
        #expect(failure.description.contains("/dev/null: not a serial port"))
    }

    // MARK: Character device

    @Test func aCharacterDeviceWritesAndReadsItsStatusBack() throws {
        let printer = try FakePrinter.serial(answers: Self.outOfPaper, holdsRawSlave: true)
        defer { printer.stop() }
        let connection = try USBPrinterConnection(path: printer.path, timeouts: Self.quick)
        try connection.write(Self.slip)
        #expect(printer.waitForBytes(Self.slip.count))
        #expect(printer.received == Self.slip)
        #expect(try connection.requestStatus(.rollPaperSensor) == 0x7E)
    }

    @Test func aMissingDeviceNodeIsNoDeviceNamingThePath() throws {
        let attempt = Result<USBPrinterConnection, PrinterError> { () throws(PrinterError) in try USBPrinterConnection(path: "/dev/usb/lp9") }
        let failure = try #require(attempt.failure)
        #expect(failure.kind == .noDevice)
        #expect(failure.address == "/dev/usb/lp9")
        #expect(failure.description.hasPrefix("/dev/usb/lp9: no printer there (No such file or directory, errno 2)"))
    }
}
