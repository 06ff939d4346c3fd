import FoundationEssentials

/// One step of the schema, applied once and recorded in `schema_migrations`.
public struct Migration: Sendable {
    public let version: Int64
    public let name: String
    public let sql: String

    public init(version: Int64, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// Applies versioned migrations in order, each in its own transaction.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        precondition(zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version }, "migrations must be in increasing version order")
        self.migrations = migrations
    }

    /// Brings `database` up to the newest migration.
    ///
    /// - Throws: ``SQLiteError`` if a migration fails (that migration is
    ///   rolled back), or if the database was written by a newer Teller.
    public func migrate(_ database: Database, now: Date = Date()) throws {
        try database.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at_ms INTEGER NOT NULL
            )
            """)
        let applied = Set(try database.query("SELECT version FROM schema_migrations") { $0.int64(0) })
        if let newest = applied.max(), let known = migrations.last?.version, newest > known {
            throw SQLiteError(code: .error, message: "\(database.path) has schema version \(newest), newer than this Teller understands (\(known)); install the newer Teller", path: database.path)
        }
        for migration in migrations where !applied.contains(migration.version) {
            try database.inTransaction {
                try database.execute(migration.sql)
                try database.run("INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)",
                                 [.integer(migration.version), .text(migration.name), .integer(now.millisecondsSince1970)])
            }
        }
    }

    /// The newest version this migrator knows, or 0.
    public var knownVersion: Int64 { migrations.last?.version ?? 0 }

    /// Refuses a database these migrations must not touch, before anything
    /// is written to it: one with tables but no `schema_migrations` (another
    /// application's), or one recorded at a version newer than the last
    /// migration. A database without any table is blank and allowed.
    ///
    /// - Parameter requiringCurrent: also refuse a blank database or an older
    ///   version, which only ``migrate(_:now:)`` could bring up to date (for
    ///   readers that must not write).
    /// - Throws: ``DatabaseRefusal`` naming the file, or ``SQLiteError``.
    public func refuseUnknownSchema(_ database: Database, requiringCurrent: Bool = false) throws {
        let tables = try database.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name") { $0.text(0) }
        guard tables.contains("schema_migrations") else {
            if tables.isEmpty && !requiringCurrent { return }
            throw DatabaseRefusal(path: database.path, reason: .foreign(tables: tables))
        }
        let version = try Migrator.currentVersion(of: database)
        if version > knownVersion {
            throw DatabaseRefusal(path: database.path, reason: .newerSchema(version: version, known: knownVersion))
        }
        if requiringCurrent && version < knownVersion {
            throw DatabaseRefusal(path: database.path, reason: .olderSchema(version: version, known: knownVersion))
        }
    }

    /// The highest version recorded in `database`, or 0.
    public static func currentVersion(of database: Database) throws -> Int64 {
        try database.queryInt64("SELECT max(version) FROM schema_migrations") ?? 0
    }
}

extension Date {
    package var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
    package init(millisecondsSince1970 ms: Int64) { self.init(timeIntervalSince1970: Double(ms) / 1000) }
}
