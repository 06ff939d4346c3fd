import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd (Type=notify) when the terminal is ready and that it is
/// alive, through the datagram socket in $NOTIFY_SOCKET. Does nothing when
/// not started by systemd.
struct SystemdNotifier {
    private let socketPath: String?
    /// Half of WatchdogSec, when systemd watches this service.
    let watchdogInterval: TimeInterval?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0,
           environment["WATCHDOG_PID"].map({ Int32($0) == getpid() }) ?? true {
            watchdogInterval = usec / 1_000_000 / 2
        } else {
            watchdogInterval = nil
        }
    }

    var isActive: Bool { socketPath != nil }

    func ready() { send("READY=1\nSTATUS=Terminal ready") }
    func watchdog() { send("WATCHDOG=1") }
    func stopping() { send("STOPPING=1") }
    func status(_ text: String) { send("STATUS=\(text)") }

    /// Sends one notification; an abstract socket is written "@name".
    func send(_ message: String) {
        guard let socketPath else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard let address = try? UnixSocketAddress(path: socketPath) else { return }
        let bytes = Array(message.utf8)
        _ = address.withSocketAddress { socketAddress, length in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
        }
    }
}
