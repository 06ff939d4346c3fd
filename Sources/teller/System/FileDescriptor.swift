import Glibc

/// A descriptor teller writes whole messages to and reads from outside the
/// control socket: standard output and error, and the virtual device's
/// host channel (a serial port).
///
/// Each call retries EINTR here and throws ``SystemCallError`` for what the
/// environment can cause (a full disk, a vanished device); a bad descriptor
/// can only be a bug in teller and stops it with a precondition.
/// Does not own the descriptor: what ``open(forUpdating:)`` returns is
/// closed with ``close()``.
struct FileDescriptor: RawRepresentable, Sendable {
    let rawValue: Int32

    init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Opens `path` for reading and writing.
    static func open(forUpdating path: String) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: Int32(try retrying("open \(path)") { Int(Glibc.open(path, O_RDWR | O_CLOEXEC)) }))
    }

    /// Opens `path` for reading and writing without blocking: reads and
    /// writes that would wait fail with EAGAIN (see ``readAvailable(upTo:)``).
    static func open(forUpdatingWithoutBlocking path: String) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: Int32(try retrying("open \(path)") { Int(Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)) }))
    }

    /// Opens `path` for reading by its own name: a symbolic link fails with
    /// ELOOP, and a pipe opens at once instead of waiting for a writer
    /// (O_NONBLOCK), so the caller can look at what it opened (``FileStatus``
    /// of the descriptor) before it reads a byte.
    static func open(forReadingWithoutFollowing path: String) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: Int32(try retrying("open \(path)") {
            Int(Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC))
        }))
    }

    /// Makes reads and writes on an already open descriptor fail with EAGAIN instead of waiting.
    func setNonBlocking() throws(SystemCallError) {
        let flags = try Self.retrying("fcntl F_GETFL") { Int(fcntl(rawValue, F_GETFL)) }
        _ = try Self.retrying("fcntl F_SETFL") { Int(fcntl(rawValue, F_SETFL, Int32(flags) | O_NONBLOCK)) }
    }

    /// Asks the kernel for SIGIO to this process on the descriptor's events
    /// (O_ASYNC): a virtio port signals each byte batch from the host and each
    /// host connect and hang-up, which poll(2) alone can miss when both come
    /// between two looks.
    func signalEvents() throws(SystemCallError) {
        _ = try Self.retrying("fcntl F_SETOWN") { Int(fcntl(rawValue, F_SETOWN, getpid())) }
        let flags = try Self.retrying("fcntl F_GETFL") { Int(fcntl(rawValue, F_GETFL)) }
        _ = try Self.retrying("fcntl F_SETFL O_ASYNC") { Int(fcntl(rawValue, F_SETFL, Int32(flags) | O_ASYNC)) }
    }

    /// poll(2) on this descriptor alone.
    /// - Parameter milliseconds: how long to wait; -1 waits until an event.
    /// - Returns: the events that happened (POLLHUP and POLLERR among them
    ///   even when not asked for); 0 when the time ran out.
    func wait(for events: Int32, milliseconds: Int32) throws(SystemCallError) -> Int32 {
        var entry = pollfd(fd: rawValue, events: Int16(events), revents: 0)
        let ready = try Self.retrying("poll") { Int(poll(&entry, 1, milliseconds)) }
        precondition(entry.revents & Int16(POLLNVAL) == 0, "poll: bad file descriptor (a bug in teller)")
        return ready == 0 ? 0 : Int32(entry.revents)
    }

    /// Up to `count` bytes of what has arrived on a non-blocking descriptor:
    /// empty at the end of the file, nil when nothing is there yet.
    func readAvailable(upTo count: Int) throws(SystemCallError) -> [UInt8]? {
        do {
            return try read(upTo: count)
        } catch where error.errno == EAGAIN {
            return nil
        }
    }

    /// Writes what fits now on a non-blocking descriptor.
    /// - Returns: how many bytes went; 0 when nothing fits yet.
    func writeAvailable(_ bytes: ArraySlice<UInt8>) throws(SystemCallError) -> Int {
        do {
            return try Self.retrying("write") { bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress, $0.count) } }
        } catch where error.errno == EAGAIN {
            return 0
        }
    }

    /// Writes all of `bytes`, however many calls it takes.
    func writeAll(_ bytes: some Collection<UInt8>) throws(SystemCallError) {
        var unwritten = Array(bytes)[...]
        while !unwritten.isEmpty {
            let written = try Self.retrying("write") {
                unwritten.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress, $0.count) }
            }
            unwritten = unwritten.dropFirst(written)
        }
    }

    /// Up to `count` bytes; empty at the end of the file.
    func read(upTo count: Int) throws(SystemCallError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try Self.retrying("read") {
            buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) }
        }
        return Array(buffer[..<read])
    }

    /// Closes the descriptor. Linux releases it even when close reports
    /// EINTR, so it is never retried.
    func close() {
        let result = Glibc.close(rawValue)
        precondition(result == 0 || errno != EBADF, "close: bad file descriptor (a bug in teller)")
    }

    /// Runs `call` until it does not fail with EINTR.
    private static func retrying(_ name: @autoclosure () -> String, _ call: () -> Int) throws(SystemCallError) -> Int {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            switch code {
            case EINTR: continue
            case EBADF: preconditionFailure("\(name()): bad file descriptor (a bug in teller)")
            default: throw SystemCallError(call: name(), errno: code)
            }
        }
    }
}

/// A system call that failed for a reason the environment can cause.
struct SystemCallError: Error, Equatable, CustomStringConvertible {
    let call: String
    let errno: Int32

    /// "write: No space left on device".
    var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
