import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes small secret files so that a power cut leaves either the old or
/// the new content, never a torn file: write a temporary file with mode
/// 0600, fsync it, rename it over the target, fsync the directory.
enum DurableFile {
    static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws(DurableFileError) {
        let temporary = path + ".tmp"
        let fd = try step("create \(temporary)") { () throws(SystemCallError) in try Syscall.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: mode) }
        var closed = false
        defer { if !closed { try? Syscall.close(fd) } }
        // The mode given to open() is reduced by the umask; secrets need exactly 0600.
        try step("chmod \(temporary)") { () throws(SystemCallError) in try Syscall.changeMode(fd, mode) }
        try step("write \(temporary)") { () throws(SystemCallError) in try Syscall.writeAll(fd, data) }
        try step("fsync \(temporary)") { () throws(SystemCallError) in try Syscall.fsync(fd) }
        closed = true
        try step("close \(temporary)") { () throws(SystemCallError) in try Syscall.close(fd) }
        try step("rename \(temporary) to \(path)") { () throws(SystemCallError) in try Syscall.rename(temporary, to: path) }
        // The new content is in place; syncing the directory makes the rename
        // itself survive a power cut, where the file system allows it.
        let directory = (path as NSString).deletingLastPathComponent
        if let directoryFD = try? Syscall.open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY) {
            try? Syscall.fsync(directoryFD)
            try? Syscall.close(directoryFD)
        }
    }

    /// Runs one step, naming it in the error callers already know.
    private static func step<T>(_ operation: String, _ body: () throws(SystemCallError) -> T) throws(DurableFileError) -> T {
        do {
            return try body()
        } catch {
            throw .system(operation, error.errno)
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
