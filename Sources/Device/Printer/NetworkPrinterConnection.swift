import SystemCalls
import Glibc

/// A printer on the network, on the raw TCP port (9100 by convention:
/// "JetDirect"), which takes ESC/POS as it is and answers DLE EOT on the same connection.
public final class NetworkPrinterConnection: PrinterConnection {
    private let channel: PrinterChannel

    /// "192.0.2.7:9100", "[2001:db8::7]:9100".
    public var address: String { channel.address }

    /// The raw printing port printers listen on.
    public static let defaultPort: UInt16 = 9100

    /// Connects to `host` (an IPv4 or IPv6 address, or a name) within
    /// ``PrinterTimeouts/connect``, trying each of its addresses in turn.
    /// - Throws: ``PrinterError`` naming "host:port": `.unresolvable`,
    ///   `.connectionRefused`, `.unreachable`, `.timedOut`.
    public init(host: String, port: UInt16 = NetworkPrinterConnection.defaultPort,
                timeouts: PrinterTimeouts = PrinterTimeouts()) throws(PrinterError) {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let candidates: [SocketAddress]
        do { candidates = try Syscall.resolve(host: host, port: port) } catch {
            throw PrinterError(kind: .unresolvable(error.reason), address: address)
        }
        let deadline = ContinuousClock.now.advanced(by: timeouts.connect)
        var failure = PrinterError(kind: .timedOut(operation: "connect", after: timeouts.connect), address: address)
        for candidate in candidates {
            // A candidate that fails closes its socket as the error is thrown.
            do throws(PrinterError) {
                let connected = try Self.connect(to: candidate, until: deadline, address: address, timeout: timeouts.connect)
                channel = PrinterChannel(connected, address: address, timeouts: timeouts, isSocket: true)
                return
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// A connected socket to one of the host's addresses, or why it failed.
    private static func connect(to candidate: SocketAddress, until deadline: ContinuousClock.Instant, address: String,
                                timeout: Duration) throws(PrinterError) -> FileDescriptor {
        let socket: FileDescriptor
        do { socket = try FileDescriptor.socket(candidate.family, .stream, nonBlocking: true) } catch {
            throw PrinterError(kind: .system("socket"), address: address, errno: error.errno)
        }
        let connected: Bool
        do {
            connected = try finishConnecting(socket, to: candidate, until: deadline)
            if connected { try socket.sendImmediately() }
        } catch {
            throw connecting(address, error.errno, timeout: timeout)
        }
        guard connected else {
            throw PrinterError(kind: .timedOut(operation: "connect", after: timeout), address: address)
        }
        return socket
    }

    /// Connects the non-blocking socket; false when `deadline` passed first.
    private static func finishConnecting(_ socket: borrowing FileDescriptor, to candidate: SocketAddress,
                                         until deadline: ContinuousClock.Instant) throws(SystemCallError) -> Bool {
        if try socket.startConnecting(to: candidate) { return true }
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let happened = try socket.wait(for: POLLOUT, milliseconds: PrinterChannel.milliseconds(left))
            guard happened != 0 else { continue }
            if let error = try socket.pendingError() { throw SystemCallError(call: "connect", errno: error) }
            return true
        }
    }

    private static func connecting(_ address: String, _ errno: Errno, timeout: Duration) -> PrinterError {
        switch errno.rawValue {
        case ECONNREFUSED: PrinterError(kind: .connectionRefused, address: address, errno: errno)
        case ENETUNREACH, EHOSTUNREACH: PrinterError(kind: .unreachable, address: address, errno: errno)
        case ETIMEDOUT: PrinterError(kind: .timedOut(operation: "connect", after: timeout), address: address, errno: errno)
        default: PrinterError(kind: .system("connect"), address: address, errno: errno)
        }
    }

    public func write(_ bytes: [UInt8]) throws(PrinterError) { try channel.write(bytes) }

    public func requestStatus(_ request: StatusRequest) throws(PrinterError) -> UInt8 {
        try channel.requestStatus(request)
    }
}
