import SystemCalls
import Glibc

/// Why a receipt printer could not be reached, written to or asked its
/// status, naming the device path or network address and, where the
/// kernel said why, its errno.
public struct PrinterError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// No such device node, or nothing behind it (unplugged, switched off).
        case noDevice
        /// The node exists but this user may not open it.
        case permissionDenied
        /// Another program holds the printer (usblp lets one open it at a time).
        case busy
        /// The serial path is not a terminal device.
        case notASerialPort
        /// The serial port does not take this baud rate.
        case unsupportedBaudRate(Int)
        /// The host name gives no address; the resolver's reason.
        case unresolvable(String)
        /// Nothing listens at the address (ECONNREFUSED).
        case connectionRefused
        /// No route to the address.
        case unreachable
        /// An operation ("connect", "write") did not finish in time; for a
        /// write, the printer took no byte for that long (out of paper, its
        /// cover open, or switched off mid-job).
        case timedOut(operation: String, after: Duration)
        /// The printer went away while in use: unplugged, reset, or the peer closed the connection.
        case disconnected
        /// The device gives nothing back (a one-way connection).
        case readsNothing
        /// No answer to a status request in time.
        case noStatusAnswer(StatusRequest, after: Duration)
        /// Bytes came back for a status request, none of them a status answer.
        case malformedStatusAnswer(StatusRequest, [UInt8])
        /// Any other kernel call that failed.
        case system(String)
    }

    public var kind: Kind
    /// "/dev/usb/lp0", "/dev/ttyUSB0", "192.0.2.7:9100".
    public var address: String
    public var errno: Errno?

    public init(kind: Kind, address: String, errno: Errno? = nil) {
        self.kind = kind
        self.address = address
        self.errno = errno
    }

    public var description: String {
        let reason = errno.map { " (\($0), errno \($0.rawValue))" } ?? ""
        switch kind {
        case .noDevice:
            return "\(address): no printer there\(reason); is it plugged in and switched on (see dmesg for usblp or the serial adapter)?"
        case .permissionDenied:
            return "\(address): permission denied\(reason); add the Teller service user to the 'lp' group (printers) or 'dialout' (serial ports)"
        case .busy:
            return "\(address): another program holds the printer\(reason); stop it (fuser \(address))"
        case .notASerialPort:
            return "\(address): not a serial port\(reason)"
        case .unsupportedBaudRate(let baud):
            return "\(address): the port does not take \(baud) baud; use 9600, 19200, 38400, 57600 or 115200 as the printer's settings page says"
        case .unresolvable(let why):
            return "\(address): the host name gives no address: \(why)"
        case .connectionRefused:
            return "\(address): connection refused\(reason); is the printer's network interface on, and is the port 9100?"
        case .unreachable:
            return "\(address): no route to the printer\(reason); check its IP address and the network cable"
        case .timedOut(let operation, let after):
            return "\(address): \(operation) did not finish within \(after); is the printer out of paper, its cover open, or switched off?"
        case .disconnected:
            return "\(address): the printer went away\(reason); it was unplugged, reset or closed the connection"
        case .readsNothing:
            return "\(address): the printer sends nothing back\(reason), so its status cannot be read"
        case .noStatusAnswer(let request, let after):
            return "\(address): no answer to \(request) within \(after); is it an ESC/POS printer, and does its connection carry answers back?"
        case .malformedStatusAnswer(let request, let bytes):
            return "\(address): the answer to \(request) was \(hexadecimal: bytes), not a status byte; is it an ESC/POS printer?"
        case .system(let operation):
            return "\(address): \(operation) failed\(reason)"
        }
    }

    /// Maps an open(2) failure onto the kinds a technician can act on.
    static func opening(_ address: String, _ errno: Errno) -> PrinterError {
        switch errno.rawValue {
        case ENOENT, ENODEV, ENXIO: PrinterError(kind: .noDevice, address: address, errno: errno)
        case EACCES, EPERM: PrinterError(kind: .permissionDenied, address: address, errno: errno)
        case EBUSY: PrinterError(kind: .busy, address: address, errno: errno)
        default: PrinterError(kind: .system("open"), address: address, errno: errno)
        }
    }

    /// Maps a failed read, write or send of a printer in use.
    static func using(_ address: String, _ operation: String, _ errno: Errno) -> PrinterError {
        switch errno.rawValue {
        case EPIPE, ECONNRESET, EIO, ENODEV, ENXIO, ESHUTDOWN, ENOTCONN:
            PrinterError(kind: .disconnected, address: address, errno: errno)
        default: PrinterError(kind: .system(operation), address: address, errno: errno)
        }
    }
}
