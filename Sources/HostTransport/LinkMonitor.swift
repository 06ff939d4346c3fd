import SystemCalls
import CNetlink
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Watches rtnetlink for a network link coming up or going down, or an
/// address being added or removed, so the sync engine drains as soon as
/// connectivity returns, and asks the host at once when it may have gone
/// (the status bar then says Offline within a request's timeout, not at
/// the engine's next idle probe), instead of at its next timer.
public final class LinkMonitor: Sendable {
    /// The write end of a pipe the reader thread also waits on: closing it
    /// (when the monitor goes) ends the thread, which then closes the
    /// netlink socket itself. (A netlink socket refuses shutdown, and closing
    /// a descriptor another thread still reads could hand its number to
    /// someone else.)
    private let stopWriter: FileDescriptor
    private let callback: ChangeCallback

    /// Opens a NETLINK_ROUTE socket subscribed to link and address changes.
    /// - Throws: ``LinkMonitorError`` when the kernel refuses the socket.
    public init(onChange: @escaping @Sendable (String) -> Void) throws(LinkMonitorError) {
        let socket: FileDescriptor
        do {
            socket = try FileDescriptor.socket(AF_NETLINK, .raw, protocol: NETLINK_ROUTE)
        } catch {
            throw .system("socket(AF_NETLINK)", error.errno.rawValue)
        }
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = UInt32(RTMGRP_LINK) | UInt32(RTMGRP_IPV4_IFADDR) | UInt32(RTMGRP_IPV6_IFADDR)
        do {
            try socket.bind(to: address)
        } catch {
            throw .system("bind(RTMGRP_LINK)", error.errno.rawValue)
        }
        let stop: Pipe
        do {
            stop = try FileDescriptor.pipe()
        } catch {
            throw .system("pipe", error.errno.rawValue)
        }
        stopWriter = stop.writer
        let callback = ChangeCallback(onChange)
        self.callback = callback
        let reader = NetlinkReader(socket: socket, stop: stop.reader)
        KernelThread.detach { LinkMonitor.readLoop(reader, onChange: callback) }
    }

    deinit {
        callback.release()
    }

    /// The reader thread's descriptors, closed when the thread lets go of
    /// them: a class because a thread's body is a closure, which cannot hold
    /// a ``FileDescriptor`` itself.
    private final class NetlinkReader: Sendable {
        let socket: FileDescriptor
        let stop: FileDescriptor
        init(socket: consuming FileDescriptor, stop: consuming FileDescriptor) {
            self.socket = socket
            self.stop = stop
        }
    }

    private static func readLoop(_ reader: NetlinkReader, onChange: ChangeCallback) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            do {
                guard try reader.socket.waitReadable(unless: reader.stop) else { return }
                let count = try reader.socket.receive(into: &buffer)
                if count == 0 { return }
                if let reason = interestingChange(in: buffer[..<count]) { onChange(reason) }
            } catch where error.errno.rawValue == ENOBUFS {
                // The kernel dropped messages the socket had no room for; later ones still come.
                continue
            } catch {
                return
            }
        }
    }

    /// The first link or address change in a batch of netlink messages:
    /// a link up (up and running) or down (no longer running, or removed),
    /// an address added or removed.
    static func interestingChange(in bytes: ArraySlice<UInt8>) -> String? {
        var offset = bytes.startIndex
        let headerSize = MemoryLayout<nlmsghdr>.size
        while offset + headerSize <= bytes.endIndex {
            let header = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: nlmsghdr.self) }
            let length = Int(header.nlmsg_len)
            guard length >= headerSize, offset + length <= bytes.endIndex else { return nil }
            switch Int32(header.nlmsg_type) {
            case Int32(RTM_NEWADDR):
                return "address added"
            case Int32(RTM_DELADDR):
                return "address removed"
            case Int32(RTM_NEWLINK), Int32(RTM_DELLINK):
                guard length >= headerSize + MemoryLayout<ifinfomsg>.size else { break }
                let info = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex + headerSize, as: ifinfomsg.self) }
                // The loopback never carries the bank's traffic.
                if info.ifi_flags & UInt32(IFF_LOOPBACK.rawValue) != 0 { break }
                let running = UInt32(IFF_UP.rawValue) | UInt32(IFF_RUNNING.rawValue)
                if Int32(header.nlmsg_type) == Int32(RTM_DELLINK) { return "link removed (ifindex \(info.ifi_index))" }
                return info.ifi_flags & running == running ? "link up (ifindex \(info.ifi_index))" : "link down (ifindex \(info.ifi_index))"
            default:
                break
            }
            offset += (length + 3) & ~3
        }
        return nil
    }
}

/// The monitor's callback, which the reader thread calls and the monitor
/// releases in its `deinit`: what the callback holds (the sync engine, and
/// through it the store) then goes with the monitor, on the thread that
/// releases the monitor, not whenever the reader thread notices the stop.
private final class ChangeCallback: Sendable {
    private let body: Mutex<(@Sendable (String) -> Void)?>

    init(_ body: @escaping @Sendable (String) -> Void) {
        self.body = Mutex(body)
    }

    func callAsFunction(_ reason: String) {
        body.withLock { $0 }?(reason)
    }

    func release() {
        body.withLock { $0 = nil }
    }
}

public enum LinkMonitorError: Error, Equatable, CustomStringConvertible {
    case system(String, Int32)

    public var description: String {
        switch self {
        case .system(let call, let code): "link monitor: \(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
