#if canImport(Glibc)
import Glibc
#endif

/// A descriptor, typed (swift-system's `FileDescriptor`): standard output
/// and error, a file read or written whole, the virtual device's host
/// channel (a serial port).
///
/// Every call goes through ``Syscall`` (EINTR retried there, failures thrown
/// as ``SystemCallError``). Does not own the descriptor: what the `open`
/// functions return is closed with ``close()``.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Opens `path` with `flags` (close-on-exec is always added).
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: try Syscall.open(path, flags, mode: mode))
    }

    /// Opens `path` for reading and writing.
    public static func open(forUpdating path: String) throws(SystemCallError) -> FileDescriptor {
        try open(path, O_RDWR)
    }

    /// Opens `path` for reading and writing without blocking: reads and
    /// writes that would wait say so (see ``readAvailable(upTo:)``).
    public static func open(forUpdatingWithoutBlocking path: String) throws(SystemCallError) -> FileDescriptor {
        try open(path, O_RDWR | O_NONBLOCK)
    }

    /// Opens `path` for reading by its own name: a symbolic link fails with
    /// ELOOP, and a pipe opens at once instead of waiting for a writer
    /// (O_NONBLOCK), so the caller can look at what it opened (``FileStatus``
    /// of the descriptor) before it reads a byte.
    public static func open(forReadingWithoutFollowing path: String) throws(SystemCallError) -> FileDescriptor {
        try open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
    }

    /// Makes reads and writes on an already open descriptor say that they
    /// would wait instead of waiting.
    public func setNonBlocking() throws(SystemCallError) {
        try Syscall.setNonBlocking(rawValue)
    }

    /// Asks the kernel for SIGIO to this process on the descriptor's events
    /// (O_ASYNC): a virtio port signals each byte batch from the host and each
    /// host connect and hang-up, which poll(2) alone can miss when both come
    /// between two looks.
    public func signalEvents() throws(SystemCallError) {
        _ = try Syscall.retrying("fcntl F_SETOWN") { fcntl(rawValue, F_SETOWN, getpid()) }
        let flags = try Syscall.retrying("fcntl F_GETFL") { fcntl(rawValue, F_GETFL) }
        _ = try Syscall.retrying("fcntl F_SETFL O_ASYNC") { fcntl(rawValue, F_SETFL, flags | O_ASYNC) }
    }

    /// poll(2) on this descriptor alone.
    /// - Parameter milliseconds: how long to wait; -1 waits until an event.
    /// - Returns: the events that happened (POLLHUP and POLLERR among them
    ///   even when not asked for); 0 when the time ran out.
    public func wait(for events: Int32, milliseconds: Int32) throws(SystemCallError) -> Int32 {
        let happened = try Syscall.poll(rawValue, events: Int16(events), timeoutMilliseconds: milliseconds)
        precondition(happened & Int16(POLLNVAL) == 0, "poll: bad file descriptor (a bug in Teller)")
        return Int32(happened)
    }

    /// Up to `count` bytes of what has arrived on a non-blocking descriptor:
    /// empty at the end of the file, nil when nothing is there yet.
    public func readAvailable(upTo count: Int) throws(SystemCallError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try buffer.withUnsafeMutableBytes { into in
            Result { () throws(SystemCallError) in try Syscall.readAvailable(rawValue, into: into) }
        }.get()
        return read.value.map { Array(buffer[..<$0]) }
    }

    /// Writes what fits now on a non-blocking descriptor.
    /// - Returns: how many bytes went; 0 when nothing fits yet.
    public func writeAvailable(_ bytes: ArraySlice<UInt8>) throws(SystemCallError) -> Int {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemCallError) in try Syscall.writeAvailable(rawValue, buffer) }
        }.get().value ?? 0
    }

    /// Writes all of `bytes`, however many calls it takes.
    public func writeAll(_ bytes: some Collection<UInt8>) throws(SystemCallError) {
        try Syscall.writeAll(rawValue, bytes)
    }

    /// Up to `count` bytes; empty at the end of the file.
    public func read(upTo count: Int) throws(SystemCallError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try buffer.withUnsafeMutableBytes { into in
            Result { () throws(SystemCallError) in try Syscall.read(rawValue, into: into) }
        }.get()
        return Array(buffer[..<read])
    }

    /// Closes the descriptor. Linux releases it even when close reports
    /// EINTR, so it is never retried; a failure afterwards (EIO) is not
    /// the caller's to act on here.
    public func close() {
        try? Syscall.close(rawValue)
    }
}
