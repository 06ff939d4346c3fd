#if canImport(Glibc)
import Glibc
#endif

/// Sockets: a network receipt printer (TCP port 9100), the link monitor's
/// netlink socket, and ``UnixSocket``.
extension Syscall {
    /// Linux's socket types, by number (the same on x86_64 and arm64).
    /// Swift 6.0 may not see <bits/socket_type.h> from a module that imports
    /// only Glibc: the C modules own that header. The kernel defines
    /// SOCK_CLOEXEC and SOCK_NONBLOCK as O_CLOEXEC and O_NONBLOCK.
    public enum SocketType: Int32, Sendable {
        case stream = 1
        case datagram = 2
        case raw = 3
    }

    /// The addresses `host` names for TCP `port`: a literal IPv4 or IPv6
    /// address, or a name the resolver knows (getaddrinfo).
    /// - Throws: a name the resolver does not know as EHOSTUNREACH, with the
    ///   resolver's own words ("Name or service not known") as its reason.
    public static func resolve(host: String, port: UInt16) throws(SystemCallError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketType.stream.rawValue
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0 else {
            if code == EAI_SYSTEM { throw SystemCallError(call: "getaddrinfo \(host)", errno: Errno(rawValue: Glibc.errno)) }
            throw SystemCallError(call: "getaddrinfo \(host)", errno: .hostUnreachable, reason: String(cString: gai_strerror(code)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var next = list
        while let entry = next {
            if let address = entry.pointee.ai_addr {
                addresses.append(SocketAddress(address, length: entry.pointee.ai_addrlen))
            }
            next = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw SystemCallError(call: "getaddrinfo \(host)", errno: .hostUnreachable, reason: "no address") }
        return addresses
    }
}

/// Calls on a socket.
extension FileDescriptor {
    /// A close-on-exec socket of `domain`.
    public static func socket(_ domain: Int32, _ type: Syscall.SocketType, protocol protocolNumber: Int32 = 0, nonBlocking: Bool = false) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(adopting: try Syscall.retrying("socket") {
            Glibc.socket(domain, type.rawValue | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0), protocolNumber)
        })
    }

    /// Binds the socket to `address`, a `sockaddr_*` of the socket's family.
    public func bind<Address>(to address: Address) throws(SystemCallError) {
        _ = try Syscall.retrying("bind") {
            withUnsafePointer(to: address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(rawValue, $0, socklen_t(MemoryLayout<Address>.size)) }
            }
        }
    }

    /// Receives one message into `buffer`; returns its length, 0 when the socket has ended.
    public func receive(into buffer: inout [UInt8]) throws(SystemCallError) -> Int {
        try Syscall.retrying("recv") { buffer.withUnsafeMutableBytes { recv(rawValue, $0.baseAddress, $0.count, 0) } }
    }

    /// Starts connecting a non-blocking socket to `address`. Returns true
    /// when it connected at once; false when it is in progress (EINPROGRESS,
    /// or EALREADY after a signal interrupted it), to be waited for with
    /// ``wait(for:milliseconds:)`` and ``pendingError()``.
    public func startConnecting(to address: SocketAddress) throws(SystemCallError) -> Bool {
        do {
            _ = try Syscall.retrying("connect") { address.withSockaddr { Glibc.connect(rawValue, $0, $1) } }
            return true
        } catch {
            switch error.errno {
            case .inProgress, .alreadyInProgress: return false
            case .alreadyConnected: return true
            default: throw error
            }
        }
    }

    /// The error a non-blocking connect ended with (SO_ERROR), or nil when it connected.
    public func pendingError() throws(SystemCallError) -> Errno? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try Syscall.retrying("getsockopt") { getsockopt(rawValue, SOL_SOCKET, SO_ERROR, &code, &length) }
        return code == 0 ? nil : Errno(rawValue: code)
    }

    /// Sends small writes at once (TCP_NODELAY): a three-byte status request
    /// must not wait for the acknowledgement of the raster before it.
    public func sendImmediately() throws(SystemCallError) {
        var on: Int32 = 1
        _ = try Syscall.retrying("setsockopt") {
            setsockopt(rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Sends what fits without waiting. MSG_NOSIGNAL: a peer that hung up
    /// is an error (EPIPE) here, not a SIGPIPE that ends the terminal.
    public func send(_ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
        try Syscall.nonBlocking("send") { Glibc.send(rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }
}

/// One IPv4 or IPv6 socket address, as the resolver gave it.
public struct SocketAddress {
    private var storage = sockaddr_storage()
    private let length: socklen_t

    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: count)) }
        self.length = socklen_t(count)
    }

    public var family: Int32 { Int32(storage.ss_family) }

    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
    }
}
