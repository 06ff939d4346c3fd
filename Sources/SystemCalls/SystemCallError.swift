/// SystemCalls' one error: a call that failed for a reason the environment
/// can cause (a missing file or device node, a permission, a full or
/// read-only disk, a refused peer, a name the resolver does not know, a
/// peer that let a deadline pass). A bad descriptor can only be a bug, and
/// stops the process instead; see ``Syscall/retrying(_:_:)``. Callers map
/// it into their border's error, adding what the operator or technician
/// needs to know.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call, with what it was called on when that helps ("open /var/lib/teller/x").
    public let call: String
    /// The kernel's errno; for a failure that is not the kernel's, the
    /// nearest one (ETIMEDOUT for a deadline, ENAMETOOLONG for a socket path
    /// that does not fit, EHOSTUNREACH for a name the resolver cannot
    /// turn into an address), with its own words in ``reason``.
    public let errno: Errno
    /// The C library's words for ``errno`` ("No space left on device"), or
    /// the failure's own words where they say more.
    public let reason: String

    public init(call: String, errno: Errno) {
        self.init(call: call, errno: errno, reason: errno.description)
    }

    public init(call: String, errno: Errno, reason: String) {
        self.call = call
        self.errno = errno
        self.reason = reason
    }

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
