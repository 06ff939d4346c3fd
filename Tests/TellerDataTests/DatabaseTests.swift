@testable import ProcessHarness
import Foundation
import Testing
@testable import TellerData
@testable import SQLite
import ProcessTestSupport

@Suite struct DatabaseTests {
    let directory = TemporaryDirectory()

    /// A new database is made under another name and renamed into place, so
    /// a kill while it is created never leaves an empty file at its path
    /// (which the next start refuses); a leftover from such a kill is replaced.
    @Test func aNewDatabaseAppearsWholeAndALeftoverIsReplaced() throws {
        let path = directory.file("new.db")
        try Data("half".utf8).write(to: URL(fileURLWithPath: path + ".creating"))
        let db = try Database(path: path)
        try db.execute("CREATE TABLE t (x)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size >= 4096, "the header is on disk before the file has its name")
        #expect(!FileManager.default.fileExists(atPath: path + ".creating"))
    }

    /// A row is read by column name; a misspelt name is an error that
    /// names the column and the SQL, never SQLite's silent 0 for a column
    /// out of range.
    @Test func aMisspeltColumnIsAnErrorNamingItAndTheSQL() async throws {
        let db = try Database(path: directory.file("named.db"))
        try db.execute("CREATE TABLE t (amount_minor INTEGER NOT NULL)")
        try db.run("INSERT INTO t VALUES (250)")
        let sql = "SELECT amount_minor FROM t"
        #expect(try db.queryFirst(sql) { (row: Statement) throws(SQLiteError) in try row.int64("amount_minor") } == 250)
        let error = await thrownError(SQLiteError.self) { _ = try db.queryFirst(sql) { (row: Statement) throws(SQLiteError) in try row.int64("amount_minr") } }
        #expect(error?.sql == sql)
        #expect(error?.message.contains("no column 'amount_minr'") == true, "\(String(describing: error))")
        #expect(error?.message.contains("amount_minor") == true, "names what the query does select")
    }

    @Test func openingSetsDurabilityPragmas() throws {
        let db = try Database(path: directory.file("a.db"))
        #expect(try db.queryText("PRAGMA journal_mode") == "wal")
        #expect(try db.queryInt64("PRAGMA synchronous") == 2) // FULL
        #expect(try db.queryInt64("PRAGMA foreign_keys") == 1)
        #expect(try db.queryInt64("PRAGMA busy_timeout") == Int64(Database.busyTimeoutMilliseconds))
    }

    @Test func typedBindingRoundTripsEveryType() throws {
        let db = try Database(path: directory.file("b.db"))
        try db.execute("CREATE TABLE t (i INTEGER, s TEXT, b BLOB, n TEXT)")
        let blob: [UInt8] = [0, 1, 0, 255, 0]
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?)", [.integer(.min), .text("Zoë ✓"), .blob(blob), .null])
        let row = try #require(try db.queryFirst("SELECT i, s, b, n FROM t") { ($0.int64(0), $0.text(1), $0.blob(2), $0.isNull(3)) })
        #expect(row.0 == .min)
        #expect(row.1 == "Zoë ✓")
        #expect(row.2 == blob) // embedded zeros survive: explicit length
        #expect(row.3)
    }

    @Test func wrongParameterCountIsAnError() throws {
        let db = try Database(path: directory.file("c.db"))
        try db.execute("CREATE TABLE t (i INTEGER)")
        #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (?)", []) }
    }

    @Test func errorsCarryCodeMessageAndSQL() throws {
        let db = try Database(path: directory.file("d.db"))
        do {
            try db.run("SELECT * FROM missing_table")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .error)
            #expect(error.message.contains("missing_table"))
            #expect(error.sql == "SELECT * FROM missing_table")
            #expect(error.description.contains(directory.file("d.db")))
        }
    }

    @Test func transactionRollsBackWhenBodyThrows() throws {
        struct Boom: Error {}
        let db = try Database(path: directory.file("e.db"))
        try db.execute("CREATE TABLE t (i INTEGER)")
        #expect(throws: Boom.self) {
            try db.inTransaction {
                try db.run("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try db.queryInt64("SELECT count(*) FROM t") == 0)
        try db.inTransaction { try db.run("INSERT INTO t VALUES (2)") }
        #expect(try db.queryInt64("SELECT count(*) FROM t") == 1)
    }

    @Test func constraintViolationRollsBackTheWholeTransaction() throws {
        let db = try Database(path: directory.file("f.db"))
        try db.execute("CREATE TABLE t (i INTEGER UNIQUE)")
        #expect(throws: SQLiteError.self) {
            try db.inTransaction {
                try db.run("INSERT INTO t VALUES (1)")
                try db.run("INSERT INTO t VALUES (1)")
            }
        }
        #expect(try db.queryInt64("SELECT count(*) FROM t") == 0)
    }

    @Test func migrationsAreRecordedAndAppliedOnce() throws {
        let path = directory.file("g.db")
        let migrator = Migrator([
            Migration(version: 1, name: "one", sql: "CREATE TABLE a (x INTEGER)"),
            Migration(version: 2, name: "two", sql: "CREATE TABLE b (y INTEGER)"),
        ])
        do {
            let db = try Database(path: path)
            try migrator.migrate(db)
            try migrator.migrate(db) // again: nothing to do, no "table exists" error
            #expect(try Migrator.currentVersion(of: db) == 2)
            #expect(try db.query("SELECT name FROM schema_migrations ORDER BY version") { $0.text(0) } == ["one", "two"])
        }
        let newer = Migrator([Migration(version: 1, name: "one", sql: "CREATE TABLE a (x INTEGER)")])
        let db = try Database(path: path)
        #expect(throws: SQLiteError.self) { try newer.migrate(db) }
    }

    @Test func failedMigrationLeavesNoTrace() throws {
        let db = try Database(path: directory.file("h.db"))
        let broken = Migrator([Migration(version: 1, name: "broken", sql: "CREATE TABLE a (x INTEGER); CREATE TABLE a (y INTEGER);")])
        #expect(throws: SQLiteError.self) { try broken.migrate(db) }
        #expect(try db.queryInt64("SELECT count(*) FROM sqlite_master WHERE name = 'a'") == 0)
        #expect(try Migrator.currentVersion(of: db) == 0)
    }
}

/// POSIX record locks belong to the process, and closing any descriptor of
/// a file drops all of them. A second connection opened (and closed) beside
/// a live one must not drop the live one's lock: another process would then
/// take itself for the last user, checkpoint, delete the -wal and -shm, and
/// this process would go on reading (and writing) a log nobody else sees.
/// Seen as a drain's confirmations that a test's fresh connection read as queued.
@Suite(.tags(.realProcess)) struct DatabaseSharedLockTests {
    let directory = TemporaryDirectory()

    @Test(arguments: ["read-write", "read-only"]) func aSecondConnectionKeepsTheFirstOnesLock(_ second: String) async throws {
        let path = directory.file("shared.db")
        let live = try Database(path: path)
        try live.execute("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('ours')")
        // WAL holds frames, so the read-only open goes through the -shm; checkpointed, it opens immutable.
        for checkpointed in [false, true] {
            if checkpointed { try live.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
            _ = second == "read-write" ? try Database(path: path) : try Database(readingOnly: path)
        }
        // Another process writes a row and closes; it is not the last user, so the log stays.
        // A third writes and is killed without closing, as `teller drain` ends.
        for (row, ending) in [("theirs", "c.close()"), ("killed", "os._exit(0)")] {
            let other = try await ChildProcess.run("/usr/bin/env", ["python3", "-c", """
                import os, sqlite3, sys
                c = sqlite3.connect(sys.argv[1], isolation_level=None)
                c.execute("INSERT INTO t VALUES (?)", (sys.argv[2],))
                \(ending)
                """, path, row])
            #expect(other.status == 0, "\(other.stderr)")
            #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the other process took itself for the last user and removed the log")
        }
        let rows = try live.query("SELECT x FROM t ORDER BY rowid") { $0.text(0) }
        #expect(rows == ["ours", "theirs", "killed"], "this process reads what the others wrote")
        let fresh = try Database(path: path).query("SELECT x FROM t ORDER BY rowid") { $0.text(0) }
        #expect(fresh == ["ours", "theirs", "killed"], "and so does a new connection in this process")
    }
}
