import Glibc

/// A C `errno` value captured right after a failing system call.
public struct Errno: RawRepresentable, Hashable, Error, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let busy = Errno(rawValue: EBUSY)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let badDescriptor = Errno(rawValue: EBADF)
    public static let notATerminalOrDevice = Errno(rawValue: ENOTTY)

    /// The C library's text, e.g. "No such file or directory".
    public var description: String { String(cString: strerror(rawValue)) }
}
