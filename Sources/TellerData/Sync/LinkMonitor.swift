import CNetlink
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches rtnetlink for a network link coming up or an address being
/// added, so the sync engine drains as soon as connectivity returns instead
/// of at its next timer.
public final class LinkMonitor: Sendable {
    private let fd: Int32
    private let onChange: @Sendable (String) -> Void

    /// Opens a NETLINK_ROUTE socket subscribed to link and address changes.
    /// - Throws: ``LinkMonitorError`` when the kernel refuses the socket.
    public init(onChange: @escaping @Sendable (String) -> Void) throws(LinkMonitorError) {
        let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_ROUTE)
        guard fd >= 0 else { throw .system("socket(AF_NETLINK)", errno) }
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = UInt32(RTMGRP_LINK) | UInt32(RTMGRP_IPV4_IFADDR) | UInt32(RTMGRP_IPV6_IFADDR)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw .system("bind(RTMGRP_LINK)", code)
        }
        self.fd = fd
        self.onChange = onChange
        let thread = Thread { [fd, onChange] in LinkMonitor.readLoop(fd: fd, onChange: onChange) }
        thread.name = "teller-link-monitor"
        thread.start()
    }

    deinit {
        // Shutting the socket down ends the reader thread's recv.
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private static func readLoop(fd: Int32, onChange: @Sendable (String) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR || errno == ENOBUFS { continue }
                return
            }
            if count == 0 { return }
            if let reason = interestingChange(in: buffer[..<count]) { onChange(reason) }
        }
    }

    /// The first "link up" or "address added" in a batch of netlink messages.
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
            case Int32(RTM_NEWLINK) where length >= headerSize + MemoryLayout<ifinfomsg>.size:
                let info = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex + headerSize, as: ifinfomsg.self) }
                let running = UInt32(IFF_UP.rawValue) | UInt32(IFF_RUNNING.rawValue)
                if info.ifi_flags & running == running { return "link up (ifindex \(info.ifi_index))" }
            default:
                break
            }
            offset += (length + 3) & ~3
        }
        return nil
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
