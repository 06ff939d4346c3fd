import SystemCalls
import FoundationEssentials

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
           environment["WATCHDOG_PID"].map({ Int32($0) == ProcessInfo.processInfo.processIdentifier }) ?? true {
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

    /// Sends one notification; an abstract socket is written "@name". A
    /// lost notification is not the terminal's failure, so none is reported.
    func send(_ message: String) {
        guard let socketPath else { return }
        try? UnixSocket.sendDatagram(Array(message.utf8), to: socketPath)
    }
}
