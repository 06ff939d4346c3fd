import SystemCalls
import CSQLite
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Opens an existing database for reading only: nothing is created,
    /// converted or written, not even a `-wal` or `-shm` beside it.
    ///
    /// The file is vetted before SQLite sees it (exists, not empty, starts
    /// with the SQLite header, not cut short), then opened read-only with
    /// every page checked as it is read (``checksPagesAsRead()``), and its
    /// schema read. Nothing here reads the whole file: what else is checked
    /// on open is the caller's to say (``refusingDamage(_:)``), and a whole
    /// check is ``checkIntegrity(quick:)`` (docs/architecture.md, "What is
    /// checked, and when").
    ///
    /// A WAL database needs its `-shm` to be read alongside its `-wal`, and a
    /// read-only SQLite connection creates both when they are missing (and
    /// leaves them behind). So when the `-wal` holds no frames the file alone
    /// is the whole database and it is opened `immutable=1` (no locks, no
    /// WAL, no `-shm`); when the `-wal` holds frames (a running or crashed
    /// writer) it is opened `mode=ro` to read them through the writer's
    /// `-shm`, and refused as unreadable if that `-shm` is missing, unless
    /// `creatingSharedMemory` allows creating it.
    ///
    /// - Parameter besideWriter: a writer has the file open now (this
    ///   process's own store): always read through its `-shm`, never
    ///   `immutable=1`, which would let SQLite read pages the writer is
    ///   checkpointing.
    /// - Throws: ``DatabaseRefusal`` when the file is missing, empty,
    ///   damaged or unreadable; ``SQLiteError`` for anything else SQLite
    ///   reports (busy, I/O errors).
    public convenience init(readingOnly path: String, creatingSharedMemory: Bool = false, besideWriter: Bool = false) throws {
        let size = try Database.vetFile(path)
        let live = try besideWriter || Database.hasLiveLog(path, size: size, creatingSharedMemory: creatingSharedMemory)
        let name = "file:" + Database.uriEscaped(path) + (live ? "?mode=ro" : "?immutable=1")
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        do {
            self.init(handle: try Database.connect(name, path: path, flags: flags), path: path)
        } catch {
            throw Database.refusal(error, path: path) ?? error
        }
        try refusingDamage {
            try checksPagesAsRead()
            _ = try queryInt64("SELECT count(*) FROM sqlite_schema")
        }
    }

    /// Runs `body`, and refuses the file when SQLite finds it damaged or not
    /// a database on the way (``DatabaseRefusal``), so a damaged page read
    /// while vetting refuses the file like a failed check.
    public func refusingDamage<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw Database.refusal(error, path: path) ?? error
        }
    }

    /// Checks what can be checked without SQLite and returns the file's size.
    private static func vetFile(_ path: String) throws(DatabaseRefusal) -> Int {
        let info: stat
        do {
            info = try Syscall.fileStatus(path)
        } catch {
            let directory = path.parentDirectory
            switch error.errno.rawValue {
            case ENOENT, ENOTDIR:
                let directoryInfo = try? Syscall.fileStatus(directory)
                let directoryExists = directoryInfo.map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
                throw DatabaseRefusal(path: path, reason: .missing(directoryExists: directoryExists))
            case EACCES:
                throw DatabaseRefusal(path: path, reason: .unreadable("permission denied on \(directory) for uid \(Syscall.userID); run as the service user (teller) or root"))
            default:
                throw DatabaseRefusal(path: path, reason: .unreadable(error.reason))
            }
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DatabaseRefusal(path: path, reason: .damaged("it is not a regular file"))
        }
        let size = Int(info.st_size)
        guard size > 0 else { throw DatabaseRefusal(path: path, reason: .empty) }
        // A file this process already has open was read when it was first
        // opened; closing a second descriptor now would drop the live
        // connection's locks (see OpenDatabaseFiles).
        try OpenDatabaseFiles.unlessOpen(info) { () throws(DatabaseRefusal) in try checkHeader(path, info: info) }
        return size
    }

    /// Reads the header through a descriptor of its own: the SQLite magic, a
    /// possible page size, and a page count the file can hold.
    private static func checkHeader(_ path: String, info: stat) throws(DatabaseRefusal) {
        let size = Int(info.st_size)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY)
        } catch {
            guard error.errno == .permissionDenied else { throw DatabaseRefusal(path: path, reason: .unreadable(error.reason)) }
            throw DatabaseRefusal(path: path, reason: .unreadable(
                "permission denied for uid \(Syscall.userID) (the file belongs to uid \(info.st_uid), mode \(String(info.st_mode & 0o7777, radix: 8))); run as the service user (teller) or root"))
        }
        let header: [UInt8]
        do {
            header = try file.read(filling: 100)
        } catch {
            throw DatabaseRefusal(path: path, reason: .damaged("reading its header failed: \(error.reason)"))
        }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw DatabaseRefusal(path: path, reason: .damaged("it is not a SQLite database (\(size) bytes without the SQLite header)"))
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw DatabaseRefusal(path: path, reason: .damaged("its header names an impossible page size (\(rawPageSize))"))
        }
        // The header's page count is valid when its change counter matches
        // "version valid for"; a live writer may be mid-checkpoint, so this
        // is only trusted when no -wal exists.
        func bigEndian(_ offset: Int) -> Int { header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let pages = bigEndian(28)
        if bigEndian(24) == bigEndian(92), pages > 0, !Syscall.exists(path + "-wal"), size < pages * pageSize {
            throw DatabaseRefusal(path: path, reason: .damaged("it is cut short: its header counts \(pages) pages of \(pageSize) bytes, the file holds \(size) bytes"))
        }
    }

    /// Whether a `-wal` holds frames that must be read through the `-shm`.
    private static func hasLiveLog(_ path: String, size: Int, creatingSharedMemory: Bool) throws(DatabaseRefusal) -> Bool {
        // A WAL header is 32 bytes; a log without frames adds nothing to the file.
        guard let wal = try? Syscall.fileStatus(path + "-wal"), wal.st_size > 32 else {
            // A hot rollback journal needs a rollback (a write) before the file reads consistently.
            if let journal = try? Syscall.fileStatus(path + "-journal"), journal.st_size > 0 {
                throw DatabaseRefusal(path: path, reason: .unreadable("\(path)-journal holds an unfinished transaction; reading it needs a rollback, which only a writer does"))
            }
            return false
        }
        if !creatingSharedMemory, !Syscall.exists(path + "-shm") {
            throw DatabaseRefusal(path: path, reason: .unreadable(
                "\(path)-wal holds \(wal.st_size) bytes of log but \(path)-shm is missing, and reading the log would create it; start the terminal (teller run recovers the log) or copy all files to another directory and read the copy"))
        }
        return true
    }

    /// A failure SQLite reports that says something about the file itself.
    private static func refusal(_ error: any Error, path: String) -> DatabaseRefusal? {
        guard let error = error as? SQLiteError else { return nil }
        switch error.code.primary {
        case .notADatabase, .corrupt:
            return DatabaseRefusal(path: path, reason: .damaged(error.message))
        case .cantOpen, .permission, .readOnly:
            return DatabaseRefusal(path: path, reason: .unreadable("\(error.message) (SQLite \(error.code.rawValue))"))
        default:
            return nil
        }
    }

    /// `path` as the path of a `file:` URI: `?`, `#` and `%` would end or change it.
    private static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
