#if canImport(Glibc)
import Glibc
#endif

/// A unix-domain socket: the control socket (`ControlServer`), `teller ctl`
/// (`ControlClient`) and systemd's notify socket (`SystemdNotifier`).
///
/// Each call goes through ``Syscall`` (EINTR retried there), and throws
/// ``SystemCallError`` for what the environment can cause (no socket at a
/// path, a refused or vanished peer, a deadline: ETIMEDOUT).
///
/// Owns its ``FileDescriptor``, which closes when the socket goes or at
/// ``close()``. A class, not a ``FileDescriptor`` alone, because the
/// control socket's queue and its Dispatch sources' cancel handlers share
/// the socket, and the last of them to let go closes it.
/// Not thread-safe: one queue uses a socket at a time.
public final class UnixSocket {
    private var file: FileDescriptor?

    /// The descriptor, lent to dispatch sources; -1 once closed.
    public var descriptor: Int32 { file?.rawValue ?? -1 }

    private init(_ file: consuming FileDescriptor) {
        self.file = .some(file)
    }

    private convenience init(_ type: Syscall.SocketType, nonBlocking: Bool) throws(SystemCallError) {
        do {
            self.init(try FileDescriptor.socket(AF_UNIX, type, nonBlocking: nonBlocking))
        } catch {
            throw SystemCallError(call: "socket(AF_UNIX)", errno: error.errno)
        }
    }

    /// Closes the descriptor; later calls do nothing. A socket that a
    /// dispatch source watches is closed from the source's cancel handler,
    /// once dispatch has let go of the descriptor.
    public func close() {
        file = nil
    }

    /// Hands the descriptor over: the caller owns it from here, and this
    /// socket is closed as far as it is concerned.
    public func takeDescriptor() -> FileDescriptor {
        guard let taken = file.take() else { preconditionFailure("taking the descriptor of a closed socket (a bug in Teller)") }
        return taken
    }

    // MARK: Listening (the control socket)

    /// A stream socket listening at `path`, replacing a stale socket file a
    /// crash left there. Non-blocking, so ``accept()`` can take every
    /// waiting peer and stop when none is left.
    ///
    /// The file is created private and then opened to `mode`, so there is no
    /// window in which others can connect.
    public static func listen(at path: String, mode: mode_t, backlog: Int32) throws(SystemCallError) -> UnixSocket {
        let address = try UnixSocketAddress(path: path)
        removeFile(at: path)
        let socket = try UnixSocket(.stream, nonBlocking: true)
        let previous = umask(0o177)
        defer { umask(previous) }
        _ = try socket.call("bind \(path)") { fd in address.withSocketAddress { bind(fd, $0, $1) } }
        _ = try socket.call("chmod \(path)") { _ in chmod(path, mode) }
        _ = try socket.call("listen \(path)") { Glibc.listen($0, backlog) }
        return socket
    }

    /// Removes a socket's file (a missing one is fine): a stale socket
    /// would refuse connections that belong to the next terminal.
    public static func removeFile(at path: String) {
        try? Syscall.unlink(path)
    }

    /// The next peer waiting on a listening socket; nil when none waits.
    public func accept() throws(SystemCallError) -> UnixSocket? {
        guard let fd = try callWithoutWaiting("accept", { Glibc.accept($0, nil, nil) }) else { return nil }
        // Glibc does not export accept4, so close-on-exec follows; the teller
        // executable starts no child processes that could inherit it in between.
        _ = fcntl(Int32(fd), F_SETFD, FD_CLOEXEC)
        return UnixSocket(FileDescriptor(adopting: Int32(fd)))
    }

    /// Whether the connected peer is root, this process's effective user or
    /// a member of its effective group (SO_PEERCRED); false when the kernel
    /// cannot say.
    public var peerIsRootOrOwnUserOrGroup: Bool {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return false }
        return credentials.uid == 0 || credentials.uid == geteuid() || credentials.gid == getegid()
    }

    // MARK: Reading and writing without waiting (the control socket's queue)

    /// Appends to `bytes` what has arrived, at most `limit` bytes, without waiting.
    /// - Returns: false once the peer has closed its side.
    public func receiveAvailable(appendingTo bytes: inout [UInt8], limit: Int) throws(SystemCallError) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var room = limit
        while room > 0 {
            let wanted = min(room, buffer.count)
            guard let count = try callWithoutWaiting("recv", { fd in
                buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, wanted, Int32(MSG_DONTWAIT)) }
            }) else { return true }
            if count == 0 { return false }
            bytes += buffer[..<count]
            room -= count
        }
        return true
    }

    /// Writes what fits without waiting.
    ///
    /// MSG_NOSIGNAL: a peer that hung up is an error here, not a SIGPIPE
    /// that ends the terminal.
    /// - Returns: how many bytes went; 0 when the socket's buffer is full.
    public func sendAvailable(_ bytes: ArraySlice<UInt8>) throws(SystemCallError) -> Int {
        try callWithoutWaiting("send", { fd in
            bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }) ?? 0
    }

    // MARK: Connecting, with deadlines (`teller ctl`)

    /// A stream socket connected to the socket at `path`. Its reads and
    /// writes never block: they wait in poll(2), up to a deadline.
    public static func connect(to path: String) throws(SystemCallError) -> UnixSocket {
        let address = try UnixSocketAddress(path: path)
        let socket = try UnixSocket(.stream, nonBlocking: false)
        _ = try socket.call("connect \(path)") { fd in address.withSocketAddress { Glibc.connect(fd, $0, $1) } }
        return socket
    }

    /// Writes all of `bytes`, waiting for room until `deadline`.
    public func writeAll(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(SystemCallError) {
        var unsent = bytes[...]
        while !unsent.isEmpty {
            let sent = try sendAvailable(unsent)
            if sent == 0, try !wait(for: POLLOUT, until: deadline) { throw Self.timedOut("write") }
            unsent = unsent.dropFirst(sent)
        }
    }

    /// The next line, without its line feed, from what has arrived and is
    /// kept in `buffer` between calls, waiting until `deadline`; nil once
    /// the peer has closed its side with no line feed left (what it sent
    /// without one stays in `buffer`). A peer that answers a line and stays
    /// connected (the virtual device's qemu socket) is read like one that closes.
    /// A peer that closes before reading what we wrote resets the connection
    /// (Linux's AF_UNIX): that too is its close, and what it wrote before is kept.
    public func readLine(buffer: inout [UInt8], until deadline: ContinuousClock.Instant) throws(SystemCallError) -> [UInt8]? {
        var open = true
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            guard open else { return nil }
            do throws(SystemCallError) {
                open = try receiveAvailable(appendingTo: &buffer, limit: Int.max)
            } catch where error.errno == .connectionReset {
                open = false
            }
            if open, buffer.firstIndex(of: 10) == nil, try !wait(for: POLLIN, until: deadline) {
                throw Self.timedOut("read")
            }
        }
    }

    /// poll(2) until the socket is ready for `events`; false once `deadline` has passed.
    private func wait(for events: Int32, until deadline: ContinuousClock.Instant) throws(SystemCallError) -> Bool {
        while true {
            let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
            guard seconds > 0 || attoseconds > 0 else { return false }
            // Rounded up, so a wait never ends just short of the deadline and spins.
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            precondition(descriptor >= 0, "poll on a closed socket (a bug in Teller)")
            if try (file?.wait(for: events, milliseconds: milliseconds) ?? 0) != 0 { return true }
        }
    }

    // MARK: Datagrams (systemd's notify socket)

    /// Sends one datagram to the socket at `path`, from a socket of its own.
    public static func sendDatagram(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let address = try UnixSocketAddress(path: path)
        let socket = try UnixSocket(.datagram, nonBlocking: false)
        _ = try socket.call("sendto \(path)") { fd in
            address.withSocketAddress { target, length in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), target, length) }
            }
        }
    }

    /// Runs `body` on the descriptor through ``Syscall/retrying(_:_:)``.
    private func call<T: BinaryInteger>(_ name: @autoclosure () -> String, _ body: (Int32) -> T) throws(SystemCallError) -> T {
        precondition(file != nil, "\(name()) on a closed socket (a bug in Teller)")
        return try Syscall.retrying(name(), { body(descriptor) })
    }

    /// ``call(_:_:)`` on a non-blocking socket: nil when it would have to wait.
    private func callWithoutWaiting<T: BinaryInteger>(_ name: @autoclosure () -> String, _ body: (Int32) -> T) throws(SystemCallError) -> Int? {
        precondition(file != nil, "\(name()) on a closed socket (a bug in Teller)")
        return try Syscall.nonBlocking(name(), { body(descriptor) }).value.map { Int($0) }
    }

    /// A peer that did not read or write before the deadline.
    private static func timedOut(_ call: String) -> SystemCallError {
        SystemCallError(call: call, errno: .timedOut, reason: "no progress before the deadline")
    }
}

/// A `sockaddr_un`: the one place that knows `sun_path`'s size, the
/// abstract namespace ("@name") and the length the kernel expects.
private struct UnixSocketAddress {
    private var storage = sockaddr_un()
    private let length: socklen_t

    /// - Parameter path: a file system path, or "@name" for the abstract namespace.
    /// - Throws: ENAMETOOLONG when the path does not fit `sun_path` (108
    ///   bytes on Linux, its NUL included) or is empty; a path is never cut
    ///   short, which would address another socket.
    init(path: String) throws(SystemCallError) {
        storage.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        // A file system path needs its terminating NUL inside sun_path.
        guard !bytes.isEmpty, bytes.count + (abstract ? 0 : 1) <= capacity else {
            throw SystemCallError(call: "socket path '\(path)'", errno: .nameTooLong,
                                  reason: "the path is empty or longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
    }

    /// Calls `body` with the address as `bind`, `connect` and `sendto` take it.
    func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

/// `struct ucred` from <sys/socket.h>, which Swift's Glibc module hides
/// behind _GNU_SOURCE: what SO_PEERCRED fills in.
private struct PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}
