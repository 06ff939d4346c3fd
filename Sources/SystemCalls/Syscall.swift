#if canImport(Glibc)
import Glibc
#endif

/// Every system call Teller makes itself goes through here (SQLite,
/// libcurl, libdrm and libevdev make their own), in the spirit of
/// swift-system and swift-nio's `syscall(blocking:)`:
///
/// - ``retrying(_:failed:_:)`` is the one loop that retries EINTR;
/// - a failure the environment can cause throws ``SystemCallError`` with a
///   typed ``Errno``;
/// - EAGAIN on a non-blocking descriptor is not an error but
///   ``IOResult/wouldBlock`` (``nonBlocking(_:_:)``);
/// - a bad file descriptor can only be a bug in the caller, so it stops the
///   process with a precondition.
///
/// Descriptors are always opened close-on-exec. See also ``FileDescriptor``,
/// the typed descriptor most callers use.
public enum Syscall {
    // MARK: The loop

    /// Runs `call` until it does not fail with EINTR: the one EINTR loop.
    /// - Parameters:
    ///   - name: the call and what it was called on, for the error.
    ///   - errorOf: the error code a result means given `errno` as the call
    ///     left it (read at once: the Swift runtime may change it before any
    ///     other code runs), nil for success.
    /// - Returns: the first result that is not a failure.
    @inline(__always)
    public static func retrying<T>(_ name: @autoclosure () -> String, errorOf: (_ result: T, _ errno: Int32) -> Int32?,
                                   _ call: () -> T) throws(SystemCallError) -> T {
        while true {
            let result = call()
            let callersErrno = Glibc.errno
            guard let code = errorOf(result, callersErrno) else { return result }
            if code == EINTR { continue }
            precondition(code != EBADF, "\(name()): bad file descriptor (a bug in Teller)")
            throw SystemCallError(call: name(), errno: Errno(rawValue: code))
        }
    }

    /// ``retrying(_:errorOf:_:)`` for a call whose failure `errno` explains.
    @inline(__always)
    public static func retrying<T>(_ name: @autoclosure () -> String, failed: (T) -> Bool, _ call: () -> T) throws(SystemCallError) -> T {
        try retrying(name(), errorOf: { failed($0) ? $1 : nil }, call)
    }

    /// ``retrying(_:errorOf:_:)`` for the calls that return -1 on failure.
    @inline(__always)
    public static func retrying<T: BinaryInteger>(_ name: @autoclosure () -> String, _ call: () -> T) throws(SystemCallError) -> T {
        try retrying(name(), failed: { $0 == -1 }, call)
    }

    /// ``retrying(_:errorOf:_:)`` for a library call that returns a
    /// negative errno (libdrm, libevdev); non-negative results are its own.
    @inline(__always)
    /// (A name of its own: a trailing closure would match a `retrying` overload
    /// whatever its label, and read -1 as EPERM.)
    public static func retryingNegativeErrno(_ name: @autoclosure () -> String, _ call: () -> Int32) throws(SystemCallError) -> Int32 {
        try retrying(name(), errorOf: { result, _ in result < 0 ? -result : nil }, call)
    }

    /// A call on a non-blocking descriptor: its result, or
    /// ``IOResult/wouldBlock`` where it would have had to wait.
    @inline(__always)
    public static func nonBlocking<T: BinaryInteger>(_ name: @autoclosure () -> String, _ call: () -> T) throws(SystemCallError) -> IOResult<T> {
        do {
            return .processed(try retrying(name(), call))
        } catch where error.errno == .wouldBlock {
            return .wouldBlock
        }
    }

    // MARK: Descriptors

    /// Opens `path`; the descriptor is always close-on-exec.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> Int32 {
        try retrying("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// Closes `fd`. Linux releases the descriptor even when close reports
    /// EINTR, so that is never retried and counts as closed.
    public static func close(_ fd: Int32) throws(SystemCallError) {
        guard Glibc.close(fd) != 0 else { return }
        let code = Glibc.errno
        precondition(code != EBADF, "close: bad file descriptor (a bug in Teller)")
        if code != EINTR { throw SystemCallError(call: "close", errno: Errno(rawValue: code)) }
    }

    /// Reads into `buffer`; returns 0 at the end of the file.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try retrying("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `count` bytes; fewer only where the file ends.
    public static func read(_ fd: Int32, upTo count: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = try retrying("read") { bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) } }
            if result == 0 { break }
            filled += result
        }
        return Array(bytes[..<filled])
    }

    /// Writes what the kernel takes of `buffer` in one call.
    public static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try retrying("write") { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads what has arrived on a non-blocking descriptor into `buffer`:
    /// 0 at the end of the file, ``IOResult/wouldBlock`` when nothing has.
    public static func readAvailable(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
        try nonBlocking("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes what fits now of `buffer` on a non-blocking descriptor.
    public static func writeAvailable(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
        try nonBlocking("write") { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes`, however many calls the kernel takes.
    public static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws(SystemCallError) {
        var unwritten = Array(bytes)[...]
        while !unwritten.isEmpty {
            let written = try retrying("write") { unwritten.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            unwritten = unwritten.dropFirst(written)
        }
    }

    /// A close-on-exec pipe.
    public static func pipe() throws(SystemCallError) -> (reader: Int32, writer: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try retrying("pipe") { Glibc.pipe(&ends) }
        // Glibc does not export pipe2, so close-on-exec follows; a child spawned
        // in between would only keep the pipe open until it execs.
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Sets O_NONBLOCK on an open descriptor.
    public static func setNonBlocking(_ fd: Int32) throws(SystemCallError) {
        let flags = try retrying("fcntl F_GETFL") { fcntl(fd, F_GETFL) }
        _ = try retrying("fcntl F_SETFL") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// An ioctl that passes one pointer argument.
    public static func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) throws(SystemCallError) {
        _ = try retrying("ioctl") { Glibc.ioctl(fd, request, argument) }
    }

    /// An ioctl that passes one integer by value (KDSETMODE, VT_ACTIVATE), not a pointer to it.
    public static func ioctl(_ fd: Int32, _ request: UInt, value: Int32) throws(SystemCallError) {
        _ = try retrying("ioctl") { Glibc.ioctl(fd, request, value) }
    }

    // MARK: Waiting

    /// poll(2) on one descriptor for `events`; returns the events that
    /// happened (POLLERR and POLLHUP among them even when not asked for),
    /// or 0 when `timeoutMilliseconds` (-1: none) passed first.
    public static func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int16 {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let ready = try retrying("poll") { Glibc.poll(&entry, 1, timeoutMilliseconds) }
        return ready > 0 ? entry.revents : 0
    }

    /// poll(2) until `fd` is readable, up to `timeoutMilliseconds` (-1: none).
    public static func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(SystemCallError) -> Bool {
        try poll(fd, events: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds) != 0
    }

    /// poll(2) until `fd` is readable (or has an error to report); false
    /// once `stop` is readable or its writer has closed instead.
    public static func waitReadable(_ fd: Int32, unless stop: Int32) throws(SystemCallError) -> Bool {
        var entries = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        _ = try retrying("poll") { Glibc.poll(&entries, 2, -1) }
        return entries[1].revents == 0
    }

    // MARK: Clock

    /// CLOCK_MONOTONIC now. It cannot fail with a valid clock and pointer, so a failure is a bug.
    public static func monotonicNow() -> timespec {
        var now = timespec()
        let result = clock_gettime(CLOCK_MONOTONIC, &now)
        precondition(result == 0, "clock_gettime(CLOCK_MONOTONIC) failed: \(Glibc.errno)")
        return now
    }
}
