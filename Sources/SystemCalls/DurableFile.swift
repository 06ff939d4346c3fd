import FoundationEssentials
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
        let file: FileDescriptor
        do throws(SystemCallError) {
            file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        } catch {
            throw .system("create \(temporary)", error.errno.rawValue)
        }
        var renamed = false
        defer { if !renamed { try? Syscall.unlink(temporary) } }
        // Each step names itself for the error callers already know.
        var operation = "chmod \(temporary)"
        do throws(SystemCallError) {
            // The mode given to open() is reduced by the umask; secrets need exactly 0600.
            try file.changeMode(mode)
            if let owner {
                // Only when it differs: teller.service forbids the chown calls
                // (SystemCallFilter ~@privileged) even for a file it already owns.
                operation = "stat \(temporary)"
                let created = try file.status()
                if created.st_uid != owner.user || created.st_gid != owner.group {
                    operation = "chown \(temporary)"
                    try file.changeOwner(user: owner.user, group: owner.group)
                }
            }
            operation = "write \(temporary)"
            try file.writeAll(data)
            operation = "fsync \(temporary)"
            try file.sync()
            // Closed by hand, not left to deinit: close(2) can still report that the data did not make it.
            operation = "close \(temporary)"
            try file.close()
            operation = "rename \(temporary) to \(path)"
            try Syscall.rename(temporary, to: path)
        } catch {
            throw .system(operation, error.errno.rawValue)
        }
        renamed = true
        // The new content is in place; syncing the directory makes the rename
        // itself survive a power cut, where the file system allows it.
        Syscall.syncDirectory(containing: path)
    }

    /// Removes the temporaries a power cut left beside `path` (``write(_:to:mode:owner:)``
    /// names them `<file>.<a random UInt64 in base 36>`: 8 to 13 digits but
    /// once in 200 million, so `.json` or `.bak` are never taken; a cut between their
    /// creation and the rename leaves one behind, empty or whole, and each
    /// cut a new one). Symbolic links are removed as links, never followed;
    /// what cannot be removed (another user's, in a shared folder) stays.
    /// - Returns: the names removed.
    @discardableResult
    public static func removeLeftovers(of path: String) -> [String] {
        let directory = path.parentDirectory
        let prefix = String(path.split(separator: "/").last ?? Substring(path)) + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let suffix = name.dropFirst(prefix.count)
            guard (8...13).contains(suffix.count), suffix.allSatisfy({ ("0"..."9").contains($0) || ("a"..."z").contains($0) }) else { continue }
            if (try? Syscall.unlink(directory.appendingPathComponent(name))) != nil { removed.append(name) }
        }
        return removed
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
