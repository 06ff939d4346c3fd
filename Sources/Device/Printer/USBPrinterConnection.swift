import SystemCalls
import Glibc

/// A printer on the USB printer class: the kernel's usblp driver gives it a
/// character device, /dev/usb/lp0 for the first. Writes go to the printer's
/// bulk OUT endpoint; a bidirectional printer (every ESC/POS counter
/// printer we know) answers DLE EOT on its IN endpoint, which reads return.
/// A parallel port's /dev/lp0 is opened the same way.
public final class USBPrinterConnection: PrinterConnection {
    private let channel: PrinterChannel

    public var address: String { channel.address }

    /// Opens `path` for writing and reading the status back, non-blocking.
    /// - Throws: ``PrinterError`` naming `path`: `.noDevice`,
    ///   `.permissionDenied` (the service user needs the 'lp' group), `.busy`.
    public init(path: String, timeouts: PrinterTimeouts = PrinterTimeouts()) throws(PrinterError) {
        let descriptor: FileDescriptor
        do { descriptor = try FileDescriptor.open(path, O_RDWR | O_NONBLOCK | O_NOCTTY) } catch {
            throw PrinterError.opening(path, error.errno)
        }
        channel = PrinterChannel(descriptor, address: path, timeouts: timeouts, isSocket: false)
    }

    public func write(_ bytes: [UInt8]) throws(PrinterError) { try channel.write(bytes) }

    public func requestStatus(_ request: StatusRequest) throws(PrinterError) -> UInt8 {
        try channel.requestStatus(request)
    }
}
