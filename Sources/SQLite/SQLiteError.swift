import CSQLite

/// A SQLite result code, named so call sites read `.busy`, not 5.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code without the extended bits (SQLITE_IOERR_FSYNC -> SQLITE_IOERR).
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    public static let permission = SQLiteResultCode(rawValue: SQLITE_PERM)
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
    public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)

    public var description: String { String(cString: sqlite3_errstr(rawValue)) + " (\(rawValue))" }
}

/// A failure at the SQLite border: the result code, SQLite's message, the
/// SQL that failed (when there was one) and the database file.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: SQLiteResultCode
    public let message: String
    public let sql: String?
    public let path: String?

    public init(code: SQLiteResultCode, message: String, sql: String? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.path = path
    }

    public var description: String {
        var text = "\(message) (SQLite \(code.rawValue): \(String(cString: sqlite3_errstr(code.rawValue))))"
        if let path, !message.contains(path) { text += " [database \(path)]" }
        if let sql { text += " [sql: \(sql)]" }
        return text
    }
}
