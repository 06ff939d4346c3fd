import SystemCalls
import CSQLite
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One SQLite connection, opened the way Teller's durability needs: WAL,
/// `synchronous=FULL`, foreign keys and a busy timeout, or opened for
/// reading only (see ``init(readingOnly:creatingSharedMemory:)``).
///
/// An existing file is vetted over a read-only connection before any pragma
/// that writes: a missing, empty, foreign, damaged or unreadable file is
/// refused with a ``DatabaseRefusal`` naming it, and keeps every byte.
/// Every connection checks each page as it reads it
/// (``checksPagesAsRead()``), so a write never builds on a damaged page.
///
/// Not thread-safe: one connection is used by one actor or thread.
public final class Database {
    let handle: OpaquePointer
    /// The database file.
    public let path: String
    private var statements: [String: Statement] = [:]
    /// The file, as ``OpenDatabaseFiles`` counts it while the connection lives.
    private let file: OpenDatabaseFiles.Identity?

    /// How long a writer waits for another connection's lock.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
        file = OpenDatabaseFiles.opened(path)
        sqlite3_busy_timeout(handle, Database.busyTimeoutMilliseconds)
    }

    /// Opens (or creates) the database at `path` for reading and writing.
    ///
    /// - Parameters:
    ///   - path: the database file; created when it does not exist.
    ///   - vetting: runs on a read-only connection to an existing file,
    ///     before anything is written; throwing refuses the file, and a
    ///     damaged page it reads refuses it as damaged
    ///     (``Migrator/refuseUnknownSchema(_:requiringCurrent:)``, ``refusingDamage(_:)``).
    /// - Throws: ``DatabaseRefusal`` for a file that must not be written
    ///   (the file stays as it was, for forensics), ``SQLiteError`` when
    ///   SQLite cannot open or configure it.
    public convenience init(path: String, vetting: (Database) throws -> Void = { _ in }) throws {
        if (try? Syscall.linkStatus(path)) == nil { try Database.create(path) }
        // A crashed writer may have left a -wal without its -shm; the
        // writer is about to recover it, so vetting may create the -shm.
        let reader = try Database(readingOnly: path, creatingSharedMemory: true)
        try reader.refusingDamage { try vetting(reader) }
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        self.init(handle: try Database.connect(path, path: path, flags: flags), path: path)
        try configureDurability()
    }

    /// Makes a new, empty database that appears whole or not at all: built
    /// under a temporary name (switching to WAL writes its header, so it is
    /// never 0 bytes), synced, and renamed into place. Created in place, a
    /// kill while SQLite made the file could leave an empty `teller.db`,
    /// which the next start must refuse as a failed copy or restore.
    private static func create(_ path: String) throws {
        let temporary = path + ".creating"
        for leftover in [temporary, temporary + "-wal", temporary + "-shm"] { try? Syscall.unlink(leftover) }
        func build() throws {
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            let fresh = Database(handle: try connect(temporary, path: temporary, flags: flags), path: temporary)
            try fresh.configureDurability()
        }
        // The connection closes when build() returns; its -wal goes with it.
        try build()
        let problem = { (error: SystemCallError) in SQLiteError(code: .ioError, message: "cannot create \(path): \(error)", path: path) }
        do {
            try FileDescriptor.open(temporary, O_RDONLY).sync()
            try Syscall.rename(temporary, to: path)
        } catch {
            throw problem(error)
        }
        Syscall.syncDirectory(containing: path)
    }

    /// Opens `name` (a path, or a `file:` URI with `SQLITE_OPEN_URI`) with `flags`.
    static func connect(_ name: String, path: String, flags: Int32) throws(SQLiteError) -> OpaquePointer {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(name, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(connection)
            throw SQLiteError(code: SQLiteResultCode(rawValue: code), message: "cannot open \(path): \(message)", path: path)
        }
        return connection
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
        if let file { OpenDatabaseFiles.closed(file) }
    }

    private func configureDurability() throws(SQLiteError) {
        let mode = try queryText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(code: .error, message: "\(path) cannot use write-ahead logging (journal_mode is \(mode ?? "unknown"))", path: path)
        }
        try execute("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
        try checksPagesAsRead()
    }

    /// Has SQLite check each b-tree page's cells as it reads the page
    /// (`cell_size_check`): a damaged page is then refused as
    /// ``SQLiteResultCode/corrupt`` when a statement first reads it, and a
    /// write, which reads every page it changes, never builds on one. It
    /// costs a little CPU per page read, none per page cached.
    public func checksPagesAsRead() throws(SQLiteError) {
        try execute("PRAGMA cell_size_check=ON")
    }

    /// Runs `PRAGMA quick_check` (or the slower `integrity_check`) and
    /// throws ``SQLiteResultCode/corrupt`` with SQLite's findings unless the
    /// answer is "ok".
    public func checkIntegrity(quick: Bool) throws(SQLiteError) {
        let pragma = quick ? "PRAGMA quick_check" : "PRAGMA integrity_check"
        let findings: [String]
        do {
            findings = try query(pragma) { $0.text(0) }
        } catch {
            throw SQLiteError(code: error.code, message: "\(path) could not be checked: \(error.message)", sql: pragma, path: path)
        }
        guard findings == ["ok"] else {
            throw SQLiteError(code: .corrupt, message: "\(path) failed \(pragma.dropFirst(7)): \(findings.prefix(5).joined(separator: "; "))", sql: pragma, path: path)
        }
    }

    /// The result of `PRAGMA integrity_check` as text ("ok" or the findings).
    public func integrityReport() throws(SQLiteError) -> String {
        try query("PRAGMA integrity_check") { $0.text(0) }.joined(separator: "\n")
    }

    /// Runs `PRAGMA quick_check` on each of `tables` and its indexes only,
    /// and refuses the file with SQLite's findings unless each says "ok":
    /// the check of the tables whose size does not grow with history.
    public func quickCheck(tables: [String]) throws {
        for table in tables {
            let findings = try refusingDamage { try query("PRAGMA quick_check(\(table))") { $0.text(0) } }
            guard findings == ["ok"] else {
                throw DatabaseRefusal(path: path, reason: .damaged("PRAGMA quick_check(\(table)) found " + findings.prefix(5).joined(separator: "; ")))
            }
        }
    }

    // MARK: Running SQL

    /// Runs one or more statements that return no rows (schema, pragmas).
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: SQLiteResultCode(rawValue: code), message: text, sql: sql, path: path)
        }
    }

    /// Runs one statement with bound values and discards any rows.
    public func run(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) {
        let statement = try prepared(sql)
        try statement.bind(values)
        defer { statement.reset() }
        while try statement.step() {}
    }

    /// Runs one statement and maps every row.
    public func query<T>(_ sql: String, _ values: [SQLValue] = [], row: (Statement) throws(SQLiteError) -> T) throws(SQLiteError) -> [T] {
        let statement = try prepared(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var rows: [T] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// Hands each row to `body` as it is read, without collecting them: for
    /// walks over a table that may be large (the journal). `body` returns
    /// false to stop there.
    public func forEach(_ sql: String, _ values: [SQLValue] = [], _ body: (Statement) throws(SQLiteError) -> Bool) throws(SQLiteError) {
        let statement = try prepared(sql)
        try statement.bind(values)
        defer { statement.reset() }
        while try statement.step() {
            guard try body(statement) else { return }
        }
    }

    /// The first row's mapping, or nil when there is no row.
    public func queryFirst<T>(_ sql: String, _ values: [SQLValue] = [], row: (Statement) throws(SQLiteError) -> T) throws(SQLiteError) -> T? {
        let statement = try prepared(sql)
        try statement.bind(values)
        defer { statement.reset() }
        return try statement.step() ? try row(statement) : nil
    }

    package func queryText(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> String? {
        try queryFirst(sql, values) { $0.optionalText(0) } ?? nil
    }

    package func queryInt64(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int64? {
        try queryFirst(sql, values) { $0.optionalInt64(0) } ?? nil
    }

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Statements are prepared once per connection and reused.
    private func prepared(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: SQLiteResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: path)
    }
}
