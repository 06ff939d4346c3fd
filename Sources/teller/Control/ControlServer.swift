import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the running terminal does for each control command.
@MainActor
protocol ControlHandler: AnyObject {
    func handle(_ command: ControlCommand) async throws -> Any
}

/// The terminal's control socket: a unix stream socket in the runtime
/// directory, mode 0660, that refuses peers other than its owner, its group
/// and root. Serves one command per connection on the main queue.
@MainActor
final class ControlServer {
    let path: String
    private let fd: Int32
    private var source: (any DispatchSourceRead)?
    private weak var handler: (any ControlHandler)?

    /// Creates the socket at `path`, replacing a stale one left by a crash.
    init(path: String, handler: any ControlHandler) throws(ControlError) {
        self.path = path
        self.handler = handler
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket(AF_UNIX)", errno) }
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch {
            Glibc.close(fd)
            throw error
        }
        // Create it private, then open it to the group: no window where others can connect.
        let previous = umask(0o177)
        let bound = address.withSocketAddress { bind(fd, $0, $1) }
        umask(previous)
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system("bind \(path)", code)
        }
        guard chmod(path, 0o660) == 0, listen(fd, 8) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system("listen \(path)", code)
        }
        self.fd = fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.acceptOne() }
        }
        source.resume()
        self.source = source
    }

    func shutDown() {
        source?.cancel()
        source = nil
        Glibc.close(fd)
        unlink(path)
    }

    private func acceptOne() {
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        guard Self.peerAllowed(client) else {
            Self.write(ControlAnswer.error("permission denied: only the terminal's user and group may use the control socket"), to: client)
            Glibc.close(client)
            return
        }
        // Commands are one short line; a peer that sends nothing within 2 s is dropped.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let line = Self.readLine(client)
        Task { @MainActor in
            let answer: Data
            do {
                let command = try ControlCommand(line: line ?? "")
                guard let handler = self.handler else { throw ControlError.failed("the terminal is shutting down") }
                answer = ControlAnswer.ok(try await handler.handle(command))
            } catch {
                answer = ControlAnswer.error("\(error)")
            }
            Self.write(answer, to: client)
            Glibc.close(client)
        }
    }

    /// Root, the socket's owner, or a member of its group.
    private static func peerAllowed(_ client: Int32) -> Bool {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(client, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return false }
        return credentials.uid == 0 || credentials.uid == geteuid() || credentials.gid == getegid()
    }

    private static func readLine(_ client: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
            if bytes.contains(10) { break }
        }
        guard !bytes.isEmpty else { return nil }
        let line = bytes.split(separator: 10, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        return String(decoding: line, as: UTF8.self)
    }

    private static func write(_ data: Data, to client: Int32) {
        var payload = [UInt8](data)
        payload.append(10)
        var offset = 0
        while offset < payload.count {
            let written = payload.withUnsafeBytes { Glibc.write(client, $0.baseAddress! + offset, payload.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// `struct ucred` from <sys/socket.h>, which Swift's Glibc module hides
/// behind _GNU_SOURCE: what SO_PEERCRED fills in.
private struct PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}
