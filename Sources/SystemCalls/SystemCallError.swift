/// A system call that failed for a reason the environment can cause: a
/// missing file or device node, a permission, a full or read-only disk, a
/// refused peer. (A bad descriptor can only be a bug, and stops the process
/// instead; see ``Syscall/retrying(_:_:)``.) Callers map it into their
/// border's error, adding what the operator or technician needs to know.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call, with what it was called on when that helps ("open /var/lib/teller/x").
    public let call: String
    public let errno: Errno

    public init(call: String, errno: Errno) {
        self.call = call
        self.errno = errno
    }

    /// The C library's words for ``errno``, e.g. "No space left on device".
    public var reason: String { errno.description }
    /// "write: No space left on device".
    public var description: String { "\(call): \(reason)" }
}

/// What a call on a non-blocking descriptor did: its result, or that it
/// would have had to wait (EAGAIN), which is not an error.
public enum IOResult<Value> {
    case processed(Value)
    case wouldBlock

    /// The result, or nil when the call would have had to wait.
    public var value: Value? {
        if case .processed(let value) = self { return value }
        return nil
    }
}

extension IOResult: Sendable where Value: Sendable {}
extension IOResult: Equatable where Value: Equatable {}
