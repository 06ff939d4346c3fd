import SystemCalls
import Glibc

/// A printer on a serial port (/dev/ttyS0, a USB adapter's /dev/ttyUSB0),
/// set to raw 8N1 at the printer's baud rate: no echo, no line editing, no
/// character translation, so raster bytes and status answers pass as they are.
public final class SerialPrinterConnection: PrinterConnection {
    /// How the printer says "wait" when its buffer is full. It must match
    /// the printer's setting (its DIP switches or settings page).
    public enum FlowControl: Hashable, Sendable {
        /// None: at low baud rates the printer keeps up.
        case none
        /// RTS/CTS wires (the printer's DTR/DSR, as the usual cable crosses them).
        case hardware
        /// XON/XOFF from the printer; the kernel holds output back. Status
        /// answers never look like XON or XOFF (bit 1 of an answer is set).
        case software
    }

    private let channel: PrinterChannel

    public var address: String { channel.address }

    /// The rates counter printers offer.
    public static let baudRates: [Int: speed_t] = [
        1200: speed_t(B1200), 2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600),
        19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600), 115200: speed_t(B115200),
        230400: speed_t(B230400),
    ]

    /// Opens `path` and sets it to raw 8N1 at `baud`.
    /// - Throws: ``PrinterError`` naming `path`: `.noDevice`,
    ///   `.permissionDenied` (the 'dialout' group), `.notASerialPort`,
    ///   `.unsupportedBaudRate`.
    public init(path: String, baud: Int, flowControl: FlowControl = .none,
                timeouts: PrinterTimeouts = PrinterTimeouts()) throws(PrinterError) {
        guard let speed = Self.baudRates[baud] else { throw PrinterError(kind: .unsupportedBaudRate(baud), address: path) }
        let descriptor: FileDescriptor
        do { descriptor = try FileDescriptor.open(path, O_RDWR | O_NONBLOCK | O_NOCTTY) } catch {
            throw PrinterError.opening(path, error.errno)
        }
        // The channel owns it from here, so a failure below closes it.
        channel = PrinterChannel(descriptor, address: path, timeouts: timeouts, isSocket: false)
        let port = channel
        var settings: termios
        do { settings = try port.descriptor.terminalAttributes() } catch {
            if error.errno == .notATerminalOrDevice { throw PrinterError(kind: .notASerialPort, address: path, errno: error.errno) }
            throw PrinterError(kind: .system("tcgetattr"), address: path, errno: error.errno)
        }
        cfmakeraw(&settings)
        settings.c_cflag &= ~tcflag_t(CSIZE | PARENB | CSTOPB)
        settings.c_cflag |= tcflag_t(CS8 | CREAD | CLOCAL)
        settings.c_cflag &= ~tcflag_t(CRTSCTS)
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        switch flowControl {
        case .none: break
        case .hardware: settings.c_cflag |= tcflag_t(CRTSCTS)
        case .software: settings.c_iflag |= tcflag_t(IXON)
        }
        guard cfsetspeed(&settings, speed) == 0 else {
            throw PrinterError(kind: .unsupportedBaudRate(baud), address: path, errno: Errno(rawValue: errno))
        }
        do {
            try port.descriptor.setTerminalAttributes(settings)
            try port.descriptor.flushTerminal()
        } catch {
            throw PrinterError(kind: .system("tcsetattr"), address: path, errno: error.errno)
        }
        // tcsetattr succeeds when any of the changes took; the rate is the one that matters.
        let applied: termios
        do { applied = try port.descriptor.terminalAttributes() } catch {
            throw PrinterError(kind: .system("tcgetattr"), address: path, errno: error.errno)
        }
        var check = applied
        guard cfgetospeed(&check) == speed else { throw PrinterError(kind: .unsupportedBaudRate(baud), address: path) }
    }

    /// Returns once the port has sent the bytes, not when the kernel took them (``PrinterChannel/drainOutput()``).
    public func write(_ bytes: [UInt8]) throws(PrinterError) {
        try channel.write(bytes)
        try channel.drainOutput()
    }

    public func requestStatus(_ request: StatusRequest) throws(PrinterError) -> UInt8 {
        try channel.requestStatus(request)
    }
}
