// <sys/socket.h> comes through CNetlink's shim in this module, and with it the SOCK_ flags.
import CNetlink
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed for a reason the environment can cause.
struct SystemCallError: Error, Equatable, CustomStringConvertible {
    /// The call, with what it was called on when that helps ("open /var/lib/teller/x").
    let call: String
    let errno: Int32

    /// The C library's words for ``errno``, e.g. "No space left on device".
    var reason: String { String(cString: strerror(errno)) }
    var description: String { "\(call): \(reason)" }
}

/// Every raw system call of TellerData goes through here. (SQLite and
/// libcurl make their own; these are the ones TellerData makes itself.)
///
/// Each wrapper retries EINTR in one place and throws ``SystemCallError``
/// for what the environment can cause (a missing file, a full or read-only
/// disk, a refused socket). A bad file descriptor can only be a bug in
/// TellerData, so it stops the process with a precondition instead.
/// Callers map the error into their border's (``DurableFileError``,
/// ``LinkMonitorError``, ``DatabaseRefusal``, ``StorageFailure``).
enum Syscall {
    /// Runs `call` until it does not fail with EINTR; returns its result or throws its errno.
    @inline(__always)
    private static func retrying<T: BinaryInteger>(_ name: @autoclosure () -> String, _ call: () -> T) throws(SystemCallError) -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            precondition(code != EBADF, "\(name()): bad file descriptor (a bug in TellerData)")
            throw SystemCallError(call: name(), errno: code)
        }
    }

    // MARK: Files

    /// Opens `path`; the descriptor is always close-on-exec.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> Int32 {
        try retrying("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// Closes `fd`. Linux releases the descriptor even when close reports
    /// EINTR, so that is never retried and counts as closed.
    static func close(_ fd: Int32) throws(SystemCallError) {
        guard Glibc.close(fd) != 0 else { return }
        let code = Glibc.errno
        precondition(code != EBADF, "close: bad file descriptor (a bug in TellerData)")
        if code != EINTR { throw SystemCallError(call: "close", errno: code) }
    }

    static func changeMode(_ fd: Int32, _ mode: mode_t) throws(SystemCallError) {
        _ = try retrying("fchmod") { fchmod(fd, mode) }
    }

    static func changeOwner(_ fd: Int32, user: uid_t, group: gid_t) throws(SystemCallError) {
        _ = try retrying("fchown") { fchown(fd, user, group) }
    }

    /// fstat(2): the open file itself.
    static func fileStatus(_ fd: Int32) throws(SystemCallError) -> stat {
        var info = stat()
        _ = try retrying("fstat") { fstat(fd, &info) }
        return info
    }

    /// Writes all of `data`, however many calls the kernel takes.
    static func writeAll(_ fd: Int32, _ data: Data) throws(SystemCallError) {
        var written = 0
        while written < data.count {
            written += try retrying("write") { data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) } }
        }
    }

    /// Reads up to `count` bytes; fewer only where the file ends.
    static func read(_ fd: Int32, upTo count: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = try retrying("read") { bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) } }
            if result == 0 { break }
            filled += result
        }
        return Array(bytes[..<filled])
    }

    static func fsync(_ fd: Int32) throws(SystemCallError) {
        _ = try retrying("fsync") { Glibc.fsync(fd) }
    }

    static func rename(_ source: String, to target: String) throws(SystemCallError) {
        _ = try retrying("rename \(source) to \(target)") { Glibc.rename(source, target) }
    }

    /// fsyncs the directory holding `path`, so that a rename into it
    /// survives a power cut where the file system allows it (best effort:
    /// some file systems refuse to sync a directory).
    static func syncDirectory(containing path: String) {
        guard let fd = try? open(path.parentDirectory, O_RDONLY | O_DIRECTORY) else { return }
        try? fsync(fd)
        try? close(fd)
    }

    static func unlink(_ path: String) throws(SystemCallError) {
        _ = try retrying("unlink \(path)") { Glibc.unlink(path) }
    }

    /// stat(2): what `path` names, through symbolic links.
    static func fileStatus(_ path: String) throws(SystemCallError) -> stat {
        var info = stat()
        _ = try retrying("stat \(path)") { stat(path, &info) }
        return info
    }

    /// lstat(2): `path` itself, a symbolic link not followed.
    static func linkStatus(_ path: String) throws(SystemCallError) -> stat {
        var info = stat()
        _ = try retrying("lstat \(path)") { lstat(path, &info) }
        return info
    }

    /// Whether anything exists at `path`, for the files SQLite keeps beside a database.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The real user id, for refusals that tell the technician who was refused.
    static var userID: uid_t { getuid() }

    // MARK: Sockets and pipes (the link monitor)

    /// A socket of `domain`; the descriptor is always close-on-exec.
    static func socket(_ domain: Int32, _ type: Int32, _ protocolNumber: Int32) throws(SystemCallError) -> Int32 {
        try retrying("socket") { Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), protocolNumber) }
    }

    /// Binds `fd` to `address`, a `sockaddr_*` of the socket's family.
    static func bind<Address>(_ fd: Int32, to address: Address) throws(SystemCallError) {
        _ = try retrying("bind") {
            withUnsafePointer(to: address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
            }
        }
    }

    /// Receives one message into `buffer`; returns its length, 0 when the socket has ended.
    static func receive(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemCallError) -> Int {
        try retrying("recv") { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
    }

    /// A close-on-exec pipe.
    static func pipe() throws(SystemCallError) -> (reader: Int32, writer: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try retrying("pipe") { Glibc.pipe(&ends) }
        // Glibc does not export pipe2, so close-on-exec follows; a child spawned
        // in between would only keep the pipe open until it execs.
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// poll(2) until `fd` is readable (or has an error to report); false
    /// once `stop` is readable or its writer has closed instead.
    static func waitReadable(_ fd: Int32, unless stop: Int32) throws(SystemCallError) -> Bool {
        var entries = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        _ = try retrying("poll") { poll(&entries, 2, -1) }
        return entries[1].revents == 0
    }
}
