#if canImport(Glibc)
import Glibc
#endif

/// An open descriptor with exactly one owner, which closes it: swift-system's
/// `FileDescriptor` with swift-nio's ownership, made a rule by the compiler.
///
/// A `FileDescriptor` cannot be copied, only borrowed or moved. Whoever
/// holds it last closes it: its `deinit` does when it goes out of scope,
/// or ``close()`` does earlier and consumes it, so a descriptor is closed
/// exactly once and never used after. Every call on it goes through
/// ``Syscall`` (EINTR retried there, failures thrown as ``SystemCallError``,
/// a bad descriptor a precondition).
///
/// ``rawValue`` is for what borrows the number while the owner lives: a C
/// library (libdrm, libevdev), a Dispatch source, an epoll set. Never close
/// it by hand. Where more than one object must keep a descriptor open (a
/// DRM card and its buffers, a thread and the object that stops it), a
/// class holds the `FileDescriptor` and is shared instead.
public struct FileDescriptor: ~Copyable, Sendable {
    /// The kernel's number for the descriptor, to lend while this value lives.
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, which a call outside this module made
    /// (epoll_create1, which Device's CEventLoop declares); this value closes it.
    public init(adopting rawValue: Int32) {
        precondition(rawValue >= 0, "adopting descriptor \(rawValue) (a bug in Teller)")
        self.rawValue = rawValue
    }

    deinit {
        // Linux releases the descriptor even when close reports an error
        // (EINTR, EIO), and there is no owner left to tell.
        try? Syscall.close(rawValue)
    }

    /// Closes the descriptor now, reporting what close(2) says: for a file
    /// just written, EIO or ENOSPC here means the data did not make it.
    /// Linux releases the descriptor even then, so it is never retried.
    public consuming func close() throws(SystemCallError) {
        let descriptor = rawValue
        discard self
        try Syscall.close(descriptor)
    }

    /// Runs `body` with a descriptor this process has but nobody here owns
    /// (standard output, libdispatch's wakeup descriptor): it is not closed afterwards.
    public static func withBorrowed<T, Failure: Error>(_ rawValue: Int32, _ body: (borrowing FileDescriptor) throws(Failure) -> T) throws(Failure) -> T {
        let descriptor = FileDescriptor(adopting: rawValue)
        let result = Result { () throws(Failure) -> T in try body(descriptor) }
        descriptor.forget()
        return try result.get()
    }

    /// Gives the number up without closing it (``withBorrowed(_:_:)`` only).
    private consuming func forget() {
        discard self
    }

    // MARK: Opening

    /// Opens `path` with `flags` (close-on-exec is always added).
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(adopting: try Syscall.retrying("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) })
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

    /// A close-on-exec pipe.
    public static func pipe() throws(SystemCallError) -> Pipe {
        var ends: [Int32] = [-1, -1]
        _ = try Syscall.retrying("pipe") { Glibc.pipe(&ends) }
        // Glibc does not export pipe2, so close-on-exec follows; a child spawned
        // in between would only keep the pipe open until it execs.
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return Pipe(reader: FileDescriptor(adopting: ends[0]), writer: FileDescriptor(adopting: ends[1]))
    }

    /// A second descriptor for the same open file, close-on-exec, owned on its
    /// own: for a Dispatch source that closes its descriptor in its cancel handler.
    public func duplicate() throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(adopting: try Syscall.retrying("fcntl F_DUPFD_CLOEXEC") { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) })
    }

    // MARK: Settings

    /// Makes reads and writes on an already open descriptor say that they
    /// would wait instead of waiting.
    public func setNonBlocking() throws(SystemCallError) {
        let flags = try Syscall.retrying("fcntl F_GETFL") { fcntl(rawValue, F_GETFL) }
        _ = try Syscall.retrying("fcntl F_SETFL") { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
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

    // MARK: Waiting

    /// poll(2) on this descriptor alone.
    /// - Parameter milliseconds: how long to wait; -1 waits until an event.
    /// - Returns: the events that happened (POLLHUP and POLLERR among them
    ///   even when not asked for); 0 when the time ran out.
    public func wait(for events: Int32, milliseconds: Int32) throws(SystemCallError) -> Int32 {
        var entry = pollfd(fd: rawValue, events: Int16(events), revents: 0)
        let ready = try Syscall.retrying("poll") { Glibc.poll(&entry, 1, milliseconds) }
        let happened = ready > 0 ? Int32(entry.revents) : 0
        precondition(happened & POLLNVAL == 0, "poll: bad file descriptor (a bug in Teller)")
        return happened
    }

    /// poll(2) until the descriptor is readable, up to `milliseconds` (-1: none).
    public func waitReadable(milliseconds: Int32) throws(SystemCallError) -> Bool {
        try wait(for: POLLIN, milliseconds: milliseconds) != 0
    }

    /// poll(2) until the descriptor is readable (or has an error to report);
    /// false once `stop` is readable or its writer has closed instead.
    public func waitReadable(unless stop: borrowing FileDescriptor) throws(SystemCallError) -> Bool {
        var entries = [pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0), pollfd(fd: stop.rawValue, events: Int16(POLLIN), revents: 0)]
        _ = try Syscall.retrying("poll") { Glibc.poll(&entries, 2, -1) }
        return entries[1].revents == 0
    }

    // MARK: Reading

    /// Reads into `buffer` in one call; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try Syscall.retrying("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Up to `count` bytes in one call; empty at the end of the file.
    public func read(upTo count: Int) throws(SystemCallError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try buffer.withUnsafeMutableBytes { into in
            Result { () throws(SystemCallError) in try self.read(into: into) }
        }.get()
        return Array(buffer[..<read])
    }

    /// `count` bytes, however many calls it takes; fewer only where the file ends.
    public func read(filling count: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) }
            }.get()
            if result == 0 { break }
            filled += result
        }
        return Array(bytes[..<filled])
    }

    /// Reads what has arrived on a non-blocking descriptor into `buffer`:
    /// 0 at the end of the file, ``IOResult/wouldBlock`` when nothing has.
    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
        try Syscall.nonBlocking("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Up to `count` bytes of what has arrived on a non-blocking descriptor:
    /// empty at the end of the file, nil when nothing is there yet.
    public func readAvailable(upTo count: Int) throws(SystemCallError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try buffer.withUnsafeMutableBytes { into in
            Result { () throws(SystemCallError) in try readAvailable(into: into) }
        }.get()
        return read.value.map { Array(buffer[..<$0]) }
    }

    // MARK: Writing

    /// Writes what fits now of `buffer` on a non-blocking descriptor.
    public func writeAvailable(_ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
        try Syscall.nonBlocking("write") { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes what fits now on a non-blocking descriptor.
    /// - Returns: how many bytes went; 0 when nothing fits yet.
    public func writeAvailable(_ bytes: ArraySlice<UInt8>) throws(SystemCallError) -> Int {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemCallError) in try writeAvailable(buffer) }
        }.get().value ?? 0
    }

    /// Writes all of `bytes`, however many calls it takes.
    public func writeAll(_ bytes: some Collection<UInt8>) throws(SystemCallError) {
        try Syscall.writeAll(rawValue, bytes)
    }

    // MARK: Control

    /// An ioctl that passes one pointer argument.
    public func ioctl(_ request: UInt, _ argument: UnsafeMutableRawPointer) throws(SystemCallError) {
        _ = try Syscall.retrying("ioctl") { Glibc.ioctl(rawValue, request, argument) }
    }

    /// An ioctl that passes one integer by value (KDSETMODE, VT_ACTIVATE), not a pointer to it.
    public func ioctl(_ request: UInt, value: Int32) throws(SystemCallError) {
        _ = try Syscall.retrying("ioctl") { Glibc.ioctl(rawValue, request, value) }
    }

    /// Maps `length` bytes from `offset`, shared and writable (a dumb buffer, a
    /// framebuffer). The mapping outlives the descriptor; ``Syscall/unmap(_:length:)`` ends it.
    public func mapShared(length: Int, offset: Int) throws(SystemCallError) -> UnsafeMutableRawPointer {
        let address = try Syscall.retrying("mmap", failed: { $0 == nil || $0 == MAP_FAILED }) {
            mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, rawValue, off_t(offset))
        }
        return address!
    }
}

/// The two ends of a pipe, each with its own owner once taken apart
/// (`let reader = pipe.reader`; frozen, so other modules may take it apart).
@frozen public struct Pipe: ~Copyable, Sendable {
    public let reader: FileDescriptor
    public let writer: FileDescriptor
}

/// Standard output or standard error: the process's own, which no
/// ``FileDescriptor`` owns and nothing here closes.
public struct StandardStream: Sendable {
    private let rawValue: Int32

    public static let output = StandardStream(rawValue: STDOUT_FILENO)
    public static let error = StandardStream(rawValue: STDERR_FILENO)

    /// Writes all of `bytes`, however many calls it takes.
    public func writeAll(_ bytes: some Collection<UInt8>) throws(SystemCallError) {
        try Syscall.writeAll(rawValue, bytes)
    }

    /// What the stream is (a terminal, a file, a pipe), as fstat(2) says.
    public var status: FileStatus? {
        FileDescriptor.withBorrowed(rawValue) { FileStatus(descriptor: $0) }
    }
}
