import Glibc
import Testing
import SystemCalls

/// The one system-call layer: EINTR retried in one loop, EAGAIN returned as
/// would-block, every other failure thrown with its typed errno and the
/// call it came from.
@Suite struct SystemCallLayerTests {
    /// A call interrupted by a signal is made again, not reported.
    @Test func anInterruptedCallIsMadeAgain() throws {
        var calls = 0
        let result = try Syscall.retrying("test") { () -> Int32 in
            calls += 1
            guard calls > 2 else { errno = EINTR; return -1 }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 3)
    }

    /// A library call that returns a negative errno (libevdev, libdrm) goes
    /// through the same loop: -EINTR is made again, anything else is thrown.
    @Test func aNegativeErrnoIsRetriedOrThrownTyped() throws {
        var answers: [Int32] = [-EINTR, -EINTR, 1]
        #expect(try Syscall.retryingNegativeErrno("next") { answers.removeFirst() } == 1)
        answers = [-EINTR, -ENODEV]
        let error = try #require(thrownError { () throws(SystemCallError) in _ = try Syscall.retryingNegativeErrno("next") { answers.removeFirst() } })
        #expect(error == SystemCallError(call: "next", errno: .noDevice))
    }

    /// An empty non-blocking pipe says it would block; a closed one says it has ended.
    @Test func anEmptyNonBlockingPipeWouldBlockAndAClosedOneHasEnded() throws {
        let pipe = try FileDescriptor.pipe()
        let read = pipe.reader
        let writer = pipe.writer
        try read.setNonBlocking()
        #expect(try read.readAvailable(upTo: 16) == nil, "nothing yet is not an error and not the end")
        try writer.writeAll(Array("ab".utf8))
        #expect(try read.readAvailable(upTo: 16) == Array("ab".utf8))
        try writer.close()
        #expect(try read.readAvailable(upTo: 16) == [], "the writer closed: the end, not would-block")
    }

    /// A failure names the call, what it was called on, and the errno.
    @Test func aFailureNamesTheCallThePathAndTheErrno() throws {
        let error = try #require(thrownError { () throws(SystemCallError) in _ = try FileDescriptor.open("/nonexistent/teller.conf", O_RDONLY) })
        #expect(error.errno == .noSuchFile)
        #expect(error.description == "open /nonexistent/teller.conf: No such file or directory")
    }

    /// A descriptor the layer opens does not leak into a child process.
    @Test func everyDescriptorIsCloseOnExec() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        let pipe = try FileDescriptor.pipe()
        #expect(fcntl(pipe.reader.rawValue, F_GETFD) & FD_CLOEXEC != 0 && fcntl(pipe.writer.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(try file.duplicate().rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    /// An ioctl that takes its integer by value fails with the kernel's errno
    /// on a file that does not know it (KDSETMODE on /dev/null: ENOTTY).
    @Test func anIoctlByValueThrowsTheKernelsErrno() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDWR)
        let error = try #require(thrownError { () throws(SystemCallError) in try file.ioctl(0x4B3A, value: 1) })
        #expect(error == SystemCallError(call: "ioctl", errno: .notATerminalOrDevice))
    }

    /// A device node's number, split as glibc's major() and minor() split it.
    @Test func aDeviceNodeHasItsNumber() throws {
        #expect(FileStatus(path: "/dev/null")?.device == DeviceNumber(major: 1, minor: 3))
        #expect(try #require(FileStatus(path: "/tmp")).device == nil, "a directory is no device")
        // makedev(0x1234, 0x56789): both numbers wider than the old 8-bit fields.
        #expect(DeviceNumber(0x0000_1000_5672_3489) == DeviceNumber(major: 0x1234, minor: 0x56789))
        #expect("\(DeviceNumber(major: 4, minor: 1))" == "4:1")
    }

    /// A line through a unix socket, as `teller ctl` and the control socket use it.
    @Test func aUnixSocketCarriesALineBothWays() throws {
        let path = "/tmp/teller-syscalls-\(getpid()).sock"
        let listener = try UnixSocket.listen(at: path, mode: 0o600, backlog: 4)
        defer { UnixSocket.removeFile(at: path) }
        #expect(try listener.accept() == nil, "no peer yet: would block, not an error")
        let client = try UnixSocket.connect(to: path)
        let server = try #require(try listener.accept())
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        try client.writeAll(Array("status\n".utf8), until: deadline)
        var buffer: [UInt8] = []
        #expect(try server.readLine(buffer: &buffer, until: deadline) == Array("status".utf8))
        #expect(server.peerIsRootOrOwnUserOrGroup)
        let refused = try #require(thrownError { () throws(SystemCallError) in _ = try UnixSocket.connect(to: path + ".missing") })
        #expect(refused == SystemCallError(call: "connect \(path).missing", errno: .noSuchFile))
        let tooLong = "/tmp/" + String(repeating: "x", count: 200)
        let unusable = try #require(thrownError { () throws(SystemCallError) in _ = try UnixSocket.connect(to: tooLong) })
        #expect(unusable.errno == .nameTooLong)
        #expect(unusable.description == "socket path '\(tooLong)': the path is empty or longer than 107 bytes")
    }
}

/// The error `body` throws, typed; nil when it throws none.
func thrownError<E: Error>(_ body: () throws(E) -> Void) -> E? {
    do { try body() } catch { return error }
    return nil
}
