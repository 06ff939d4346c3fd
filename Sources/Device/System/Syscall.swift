import CDRM
import Glibc

/// Every raw system call of Device goes through here.
///
/// Each wrapper reads `errno` first, retries `EINTR` in one place and throws
/// an ``Errno`` for what the environment can cause (a missing device node, a
/// permission, a busy resource). A bad file descriptor can only be a bug in
/// Device, so it stops the process with a precondition instead of throwing.
/// Callers translate ``Errno`` into their border's error (``DisplayError``,
/// ``InputError``), adding the device path.
enum Syscall {
    /// Runs `call` until it does not fail with EINTR; returns its result or throws its errno.
    /// The one EINTR loop of Device: the other `Syscall+…` files call it too.
    @inline(__always)
    static func retrying<T: BinaryInteger>(_ name: StaticString, _ call: () -> T) throws(Errno) -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            precondition(code != EBADF, "\(name): bad file descriptor (a bug in Device)")
            throw Errno(rawValue: code)
        }
    }

    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        try retrying("open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    static func close(_ fd: Int32) {
        // Linux releases the descriptor even when close reports EINTR, so never retry.
        let result = Glibc.close(fd)
        precondition(result == 0 || errno != EBADF, "close: bad file descriptor (a bug in Device)")
    }

    /// Reads into `buffer`; returns 0 at end of file. Throws `.wouldBlock` on an empty non-blocking fd.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retrying("write") { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// An ioctl that passes one pointer argument (every ioctl Device uses does).
    static func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer?) throws(Errno) {
        _ = try retrying("ioctl") { cdrm_ioctl(fd, request, argument) }
    }

    static func mapShared(_ fd: Int32, length: Int, offset: Int) throws(Errno) -> UnsafeMutableRawPointer {
        while true {
            let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
            if let address, address != MAP_FAILED { return address }
            let code = errno
            if code == EINTR { continue }
            precondition(code != EBADF, "mmap: bad file descriptor (a bug in Device)")
            throw Errno(rawValue: code)
        }
    }

    static func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        let result = munmap(address, length)
        precondition(result == 0, "munmap of a mapping Device did not make")
    }

    /// Names in a directory (without "." and ".."), or an error when it cannot be listed.
    static func listDirectory(_ path: String) throws(Errno) -> [String] {
        guard let dir = opendir(path) else { throw Errno(rawValue: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func inotifyInit() throws(Errno) -> Int32 {
        try retrying("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    static func inotifyAddWatch(_ fd: Int32, _ path: String, _ mask: UInt32) throws(Errno) -> Int32 {
        try retrying("inotify_add_watch") { inotify_add_watch(fd, path, mask) }
    }

    /// poll(2) on one descriptor; returns true when it became readable before the timeout.
    static func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(Errno) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = try retrying("poll") { Glibc.poll(&pfd, 1, timeoutMilliseconds) }
        return ready > 0
    }

    /// poll(2) on one descriptor for `events`; returns the events that
    /// happened (POLLERR and POLLHUP among them), or 0 when the timeout
    /// passed first.
    static func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) throws(Errno) -> Int16 {
        var pfd = pollfd(fd: fd, events: events, revents: 0)
        let ready = try retrying("poll") { Glibc.poll(&pfd, 1, timeoutMilliseconds) }
        return ready > 0 ? pfd.revents : 0
    }

    /// CLOCK_MONOTONIC now. It cannot fail with a valid clock and pointer, so a failure is a bug.
    static func monotonicNow() -> timespec {
        var now = timespec()
        let result = clock_gettime(CLOCK_MONOTONIC, &now)
        precondition(result == 0, "clock_gettime(CLOCK_MONOTONIC) failed: \(errno)")
        return now
    }

    /// Maps a negative-errno return (libdrm, libevdev style) onto ``Errno``.
    static func check(negativeErrno result: Int32) throws(Errno) {
        if result < 0 { throw Errno(rawValue: -result) }
    }
}
