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
/// Descriptors are always opened close-on-exec, and owned by a
/// ``FileDescriptor``, which carries the calls made on one.
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
    //
    // Only ``FileDescriptor`` and the sockets here call these: a descriptor
    // outside this module is always a `FileDescriptor`, which closes itself.

    /// Closes `fd`. Linux releases the descriptor even when close reports
    /// EINTR, so that is never retried and counts as closed.
    static func close(_ fd: Int32) throws(SystemCallError) {
        guard Glibc.close(fd) != 0 else { return }
        let code = Glibc.errno
        precondition(code != EBADF, "close: bad file descriptor (a bug in Teller)")
        if code != EINTR { throw SystemCallError(call: "close", errno: Errno(rawValue: code)) }
    }

    /// Writes all of `bytes`, however many calls the kernel takes.
    static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws(SystemCallError) {
        var unwritten = Array(bytes)[...]
        while !unwritten.isEmpty {
            let written = try retrying("write") { unwritten.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            unwritten = unwritten.dropFirst(written)
        }
    }

    // MARK: Waiting

    /// poll(2) on descriptors their owners lend (the main thread's wait on
    /// libdispatch's wakeup and the event loops' epoll sets), until one has
    /// an event; each entry's `revents` says which.
    public static func poll(_ entries: inout [pollfd]) throws(SystemCallError) {
        _ = try retrying("poll") { Glibc.poll(&entries, nfds_t(entries.count), -1) }
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
