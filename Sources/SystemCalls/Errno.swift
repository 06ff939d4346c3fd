#if canImport(Glibc)
import Glibc
#endif

/// A C `errno` value captured right after a failing system call.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let interrupted = Errno(rawValue: EINTR)
    /// EAGAIN (EWOULDBLOCK): a non-blocking descriptor would have to wait.
    /// ``Syscall/nonBlocking(_:_:)`` returns it as ``IOResult/wouldBlock``.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let notADirectory = Errno(rawValue: ENOTDIR)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchDevice = Errno(rawValue: ENXIO)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let busy = Errno(rawValue: EBUSY)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let badDescriptor = Errno(rawValue: EBADF)
    public static let notATerminalOrDevice = Errno(rawValue: ENOTTY)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let inProgress = Errno(rawValue: EINPROGRESS)
    public static let alreadyInProgress = Errno(rawValue: EALREADY)
    public static let alreadyConnected = Errno(rawValue: EISCONN)
    public static let hostUnreachable = Errno(rawValue: EHOSTUNREACH)
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)

    /// The C library's text, e.g. "No such file or directory".
    public var description: String { String(cString: strerror(rawValue)) }
}
