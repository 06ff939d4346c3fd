import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes small files (the refresh token, teller.conf) so that a power cut
/// leaves either the old or the new content, never a torn file: write a
/// temporary file with `mode` (0600 by default), fsync it, rename it over the
/// target, fsync the directory.
public enum DurableFile {
    /// - Parameter owner: given to the temporary file before the rename, so
    ///   that root rewriting a file the service owns leaves it the service's.
    ///   The service itself rewriting its own file needs no chown.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o600, owner: (user: uid_t, group: gid_t)? = nil) throws(DurableFileError) {
        // A new name each time, created exclusively (O_EXCL follows no
        // symlink): in a folder another user writes (the service, in
        // teller.conf's /etc/teller) a fixed name could be a symlink planted
        // there, and root would write through it.
        let temporary = path + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system("create \(temporary)", errno) }
        var closed = false
        var renamed = false
        defer { if !closed { close(fd) } }
        defer { if !renamed { unlink(temporary) } }
        // The mode given to open() is reduced by the umask; secrets need exactly 0600.
        guard fchmod(fd, mode) == 0 else { throw .system("chmod \(temporary)", errno) }
        if let owner {
            // Only when it differs: teller.service forbids the chown calls
            // (SystemCallFilter ~@privileged) even for a file it already owns.
            var created = stat()
            guard fstat(fd, &created) == 0 else { throw .system("stat \(temporary)", errno) }
            if created.st_uid != owner.user || created.st_gid != owner.group, fchown(fd, owner.user, owner.group) != 0 {
                throw .system("chown \(temporary)", errno)
            }
        }
        var written = 0
        while written < data.count {
            let result = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, data.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw .system("write \(temporary)", errno)
            }
            written += result
        }
        guard fsync(fd) == 0 else { throw .system("fsync \(temporary)", errno) }
        closed = true
        guard close(fd) == 0 else { throw .system("close \(temporary)", errno) }
        guard rename(temporary, path) == 0 else { throw .system("rename \(temporary) to \(path)", errno) }
        renamed = true
        let directory = open((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}

public enum DurableFileError: Error, Equatable, CustomStringConvertible {
    case system(String, Int32)

    public var description: String {
        switch self {
        case .system(let operation, let code): "cannot \(operation): \(String(cString: strerror(code)))"
        }
    }
}
