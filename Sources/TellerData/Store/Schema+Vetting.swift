import SystemCalls
import FoundationEssentials
import SQLite

extension Schema {
    /// The tables whose size does not grow with the years of payments: each
    /// is checked whole (`PRAGMA quick_check(table)`) on every open.
    static let boundedTables = ["schema_migrations", "sqlite_sequence", "outbox_totals", "operators", "account_cache", "sync_problem", "retention"]

    /// What each open of `teller.db` checks before anything is written, in
    /// time that does not grow with history (docs/architecture.md, "What is
    /// checked, and when"):
    ///
    /// - the schema: another application's or a newer Teller's is refused;
    /// - the bounded tables, whole;
    /// - every page the terminal is about to work on: the payments not yet
    ///   settled, the newest payment and journal entry (where the next rows
    ///   go), the slips waiting, the open tills and the till events to send.
    ///   Each page is checked as it is read (``Database/checksPagesAsRead()``).
    ///
    /// The rest, years of settled history, is checked whole in the
    /// background by the running terminal (``DatabaseCheck``). When that
    /// check found damage it left a mark beside the file, and then the
    /// next open checks the whole file first.
    ///
    /// A database at an older schema version is checked whole: its tables
    /// may not have the columns read here, and the migration that follows
    /// reads and rewrites much of it anyway.
    ///
    /// - Throws: ``DatabaseRefusal`` naming the file and what was found.
    static func vet(_ database: Database, requiringCurrent: Bool) throws {
        try migrator.refuseUnknownSchema(database, requiringCurrent: requiringCurrent)
        // A blank file (just created) has nothing to check.
        guard try database.queryInt64("SELECT count(*) FROM sqlite_schema WHERE name = 'schema_migrations'") == 1 else { return }
        let version = try Migrator.currentVersion(of: database)
        if version < migrator.knownVersion || Syscall.exists(DatabaseCheck.markPath(for: database.path)) {
            try database.refusingDamage { try database.checkIntegrity(quick: true) }
            return
        }
        try database.quickCheck(tables: boundedTables)
        try database.refusingDamage {
            for sql in workingSet {
                try database.forEach(sql) { _ in true }
            }
        }
    }

    /// Reads every column of the rows an open terminal works on, each through an index.
    private static let workingSet = [
        "SELECT * FROM outbox WHERE state = 'queued'",
        "SELECT * FROM outbox WHERE state = 'sending'",
        "SELECT * FROM outbox WHERE state = 'needsReview'",
        "SELECT * FROM \(OutboxStore.rejectionsToAcknowledge)",
        "SELECT * FROM outbox ORDER BY id DESC LIMIT 1",
        "SELECT * FROM journal ORDER BY sequence DESC LIMIT 1",
        "SELECT * FROM print_jobs WHERE state != 'printed'",
        "SELECT * FROM tills WHERE closed_at_ms IS NULL",
        "SELECT * FROM till_events WHERE state = 'queued'",
    ]
}
