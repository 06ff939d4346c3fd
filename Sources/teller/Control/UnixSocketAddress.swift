#if canImport(Glibc)
import Glibc
#endif

/// A `sockaddr_un` built once, for the control socket (server and client)
/// and systemd's notify socket: one place that knows `sun_path`'s size, the
/// abstract namespace ("@name") and the length the kernel expects.
struct UnixSocketAddress {
    private var storage = sockaddr_un()
    private let length: socklen_t

    /// - Parameter path: a file system path, or "@name" for the abstract namespace.
    /// - Throws: ``ControlError/failed(_:)`` when the path does not fit
    ///   `sun_path` (108 bytes on Linux); a path is never cut short, which
    ///   would address another socket.
    init(path: String) throws(ControlError) {
        storage.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        // A file system path needs its terminating NUL inside sun_path.
        guard !bytes.isEmpty, bytes.count + (abstract ? 0 : 1) <= capacity else {
            throw .failed("socket path '\(path)' is empty or longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
    }

    /// Calls `body` with the address as `bind`, `connect` and `sendto` take it.
    func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
