import CSQLite

/// A prepared statement. Owns its `sqlite3_stmt` and finalizes it in deinit.
///
/// Not thread-safe: used only by the ``Database`` that prepared it.
public final class Statement {
    let handle: OpaquePointer
    public let sql: String
    private unowned let database: Database
    /// Result column indexes by name, looked up once per prepared statement.
    private var columnIndexes: [String: Int32]?

    init(database: Database, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw database.error(code, sql: sql)
        }
        handle = statement
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds values to the `?` parameters in order, replacing earlier bindings.
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw SQLiteError(code: .error, message: "statement takes \(sqlite3_bind_parameter_count(handle)) values, \(values.count) given", sql: sql, path: database.path)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .text(let v): code = sqlite3_bind_text(handle, index, v, -1, csqlite_transient())
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob64(handle, index, raw.baseAddress, sqlite3_uint64(raw.count), csqlite_transient())
                }
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
        }
    }

    /// Advances to the next row; false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Releases the statement's read lock and bindings so it can be reused.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns of the current row

    /// The index of the result column called `name` (as the SELECT names
    /// it), the way GRDB reads `row["name"]`: a row read by name keeps its
    /// meaning when a query gains or reorders columns.
    ///
    /// - Throws: ``SQLiteError`` naming the column and the SQL when the
    ///   statement selects no such column (a misspelt name), rather than
    ///   SQLite's silent 0 or NULL for a column out of range.
    public func column(_ name: String) throws(SQLiteError) -> Int32 {
        if columnIndexes == nil {
            var indexes: [String: Int32] = [:]
            for index in 0..<sqlite3_column_count(handle) {
                if let text = sqlite3_column_name(handle, index) { indexes[String(cString: text)] = index }
            }
            columnIndexes = indexes
        }
        guard let index = columnIndexes?[name] else {
            let selected = (columnIndexes ?? [:]).sorted { $0.value < $1.value }.map(\.key).joined(separator: ", ")
            throw SQLiteError(code: .error, message: "no column '\(name)' in the result (it has \(selected))", sql: sql, path: database.path)
        }
        return index
    }

    public func isNull(_ name: String) throws(SQLiteError) -> Bool { isNull(try column(name)) }
    public func int64(_ name: String) throws(SQLiteError) -> Int64 { int64(try column(name)) }
    public func optionalInt64(_ name: String) throws(SQLiteError) -> Int64? { optionalInt64(try column(name)) }
    public func text(_ name: String) throws(SQLiteError) -> String { text(try column(name)) }
    public func optionalText(_ name: String) throws(SQLiteError) -> String? { optionalText(try column(name)) }
    public func blob(_ name: String) throws(SQLiteError) -> [UInt8] { blob(try column(name)) }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    public func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
