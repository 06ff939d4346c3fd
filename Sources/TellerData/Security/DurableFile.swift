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
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .system("create \(temporary)", errno) }
        var closed = false
        defer { if !closed { close(fd) } }
        // The mode given to open() is reduced by the umask; secrets need exactly 0600.
        guard fchmod(fd, mode) == 0 else { throw .system("chmod \(temporary)", errno) }
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
