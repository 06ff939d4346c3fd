import CSQLite
import Foundation

/// One SQLite connection, opened the way Teller's durability needs: WAL,
/// `synchronous=FULL`, foreign keys, a busy timeout, and a `quick_check` of
/// any existing file before anything is written to it.
///
/// Not thread-safe: one connection is used by one actor or thread.
public final class Database {
    let handle: OpaquePointer
    /// The database file.
    public let path: String
    private var statements: [String: Statement] = [:]

    /// How long a writer waits for another connection's lock.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Opens (or creates) the database at `path`.
    ///
    /// An existing file is checked with `PRAGMA quick_check` before any
    /// pragma that writes. A damaged or unreadable file is never recreated,
    /// repaired or checkpointed into: opening throws an error naming the
    /// file and the problem, and the file stays as it was for forensics.
    public init(path: String) throws(SQLiteError) {
        let existed = FileManager.default.fileExists(atPath: path)
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if !existed { flags |= SQLITE_OPEN_CREATE }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(connection)
            throw SQLiteError(code: SQLiteResultCode(rawValue: code), message: "cannot open \(path): \(message)", path: path)
        }
        handle = connection
        self.path = path
        // Until the file is known to be sound, closing must not write into it.
        csqlite_set_no_checkpoint_on_close(handle, 1)
        sqlite3_busy_timeout(handle, Database.busyTimeoutMilliseconds)
        if existed {
            try checkIntegrity(quick: true)
        }
        try configureDurability()
        csqlite_set_no_checkpoint_on_close(handle, 0)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    private func configureDurability() throws(SQLiteError) {
        let mode = try queryText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(code: .error, message: "\(path) cannot use write-ahead logging (journal_mode is \(mode ?? "unknown"))", path: path)
        }
        try execute("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
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
            throw SQLiteError(code: error.code, message: "\(path) is damaged or not a Teller database: \(error.message)", sql: pragma, path: path)
        }
        guard findings == ["ok"] else {
            throw SQLiteError(code: .corrupt, message: "\(path) failed \(pragma.dropFirst(7)): \(findings.prefix(5).joined(separator: "; "))", sql: pragma, path: path)
        }
    }

    /// The result of `PRAGMA integrity_check` as text ("ok" or the findings).
    public func integrityReport() throws(SQLiteError) -> String {
        try query("PRAGMA integrity_check") { $0.text(0) }.joined(separator: "\n")
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

    /// The first row's mapping, or nil when there is no row.
    public func queryFirst<T>(_ sql: String, _ values: [SQLValue] = [], row: (Statement) throws(SQLiteError) -> T) throws(SQLiteError) -> T? {
        let statement = try prepared(sql)
        try statement.bind(values)
        defer { statement.reset() }
        return try statement.step() ? try row(statement) : nil
    }

    func queryText(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> String? {
        try queryFirst(sql, values) { $0.optionalText(0) } ?? nil
    }

    func queryInt64(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int64? {
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
