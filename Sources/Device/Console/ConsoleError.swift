import SystemCalls

/// Why a virtual terminal could not be opened, read, locked or unlocked,
/// naming its path, the call that failed and the kernel's errno.
public struct ConsoleError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// No such node (or no driver behind it).
        case noDevice
        /// The node answers no console ioctl: /dev/null, a regular file, a serial port, a pseudo-terminal.
        case notAVirtualTerminal
        /// A console (/dev/tty0, /dev/console), but not one numbered VT that can be made the active one.
        case notNumbered(DeviceNumber?)
        /// The kernel lets only root (CAP_SYS_TTY_CONFIG) change a VT it is not the controlling terminal of.
        case permissionDenied
        /// VT_ACTIVATE was taken, but another VT was still the active one when the wait ran out.
        case notActivated(stillActive: Int, after: Duration)
        /// Any other call that failed.
        case system
    }

    public var kind: Kind
    /// "/dev/tty1".
    public var path: String
    /// The call that failed ("open", "KDGETMODE", "KDSETMODE KD_GRAPHICS"); nil where none did.
    public var operation: String?
    public var errno: Errno?

    public init(kind: Kind, path: String, operation: String?, errno: Errno?) {
        self.kind = kind
        self.path = path
        self.operation = operation
        self.errno = errno
    }

    public var description: String {
        var failed = ""
        if let operation { failed += ": \(operation) failed" }
        if let errno { failed += ": \(errno) (errno \(errno.rawValue))" }
        switch kind {
        case .noDevice:
            return "\(path)\(failed); there is no such device (the panel's console is usually /dev/tty1)"
        case .notAVirtualTerminal:
            return "\(path)\(failed); it is not a virtual terminal (one is /dev/tty1 to /dev/tty63)"
        case .notNumbered(let device):
            let number = device.map { " (device \($0))" } ?? ""
            return "\(path)\(number)\(failed): a console, but not one numbered virtual terminal; name it, /dev/tty1 to /dev/tty63"
        case .permissionDenied:
            return "\(path)\(failed); run it as root (changing a console needs CAP_SYS_TTY_CONFIG)"
        case .notActivated(let active, let wait):
            return "\(path)\(failed): VT \(active) was still the active one after \(wait); the kernel does not switch away from a VT in graphics mode or one whose program controls switching (another display program)"
        case .system:
            return "\(path)\(failed)"
        }
    }

    /// Maps a failed call onto the kinds a technician can act on.
    static func failed(_ operation: String, _ path: String, _ errno: Errno) -> ConsoleError {
        let kind: Kind
        switch errno {
        case .noSuchFile, .noDevice, .noSuchDevice: kind = .noDevice
        case .notATerminalOrDevice: kind = .notAVirtualTerminal
        case .permissionDenied, .notPermitted: kind = .permissionDenied
        default: kind = .system
        }
        return ConsoleError(kind: kind, path: path, operation: operation, errno: errno)
    }
}
