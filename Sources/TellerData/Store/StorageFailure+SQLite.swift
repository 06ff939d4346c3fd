import SystemCalls
import FoundationEssentials
import TellerCore
import SQLite
#if canImport(Glibc)
import Glibc
#endif

extension StorageFailure {
    /// Classifies a SQLite failure by what the operator can do: a full disk,
    /// a disk turned read-only, a failing disk, or anything else.
    ///
    /// SQLite reports a filesystem that ext4 turned read-only after an I/O
    /// error (errors=remount-ro, "emergency_ro", which statvfs does not
    /// show) as a plain I/O error, so an I/O failure is followed by one
    /// probe write beside the database that asks the filesystem itself.
    init(_ error: SQLiteError) {
        var kind: Kind
        switch error.code.primary {
        case .full: kind = .full
        case .readOnly: kind = .readOnly
        case .ioError, .cantOpen: kind = .failing
        default: kind = .other
        }
        if kind == .failing || kind == .full, let path = error.path,
           let found = Self.probe(directory: path.parentDirectory) {
            kind = found
        }
        self.init(kind: kind, detail: error.description)
    }

    /// Creates, writes one byte to and removes a probe file: EROFS says
    /// read-only, ENOSPC or EDQUOT says full, anything else says nothing.
    static func probe(directory: String) -> Kind? {
        func kind(_ code: Int32) -> Kind? {
            switch code {
            case EROFS: .readOnly
            case ENOSPC, EDQUOT: .full
            default: nil
            }
        }
        let path = directory + "/.teller-storage-probe"
        do {
            let probe = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
            defer { try? Syscall.unlink(path) }
            try probe.writeAll(Data([0]))
            try probe.sync()
            return nil
        } catch {
            return kind(error.errno.rawValue)
        }
    }
}
