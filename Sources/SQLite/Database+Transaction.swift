import CSQLite

extension Database {
    /// How a transaction takes its lock.
    public enum TransactionKind: String, Sendable {
        /// Takes the lock at the first write.
        case deferred = "DEFERRED"
        /// Takes the write lock at BEGIN, so checks and the write see the same data.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in one transaction: commits when it returns, rolls back
    /// when it throws (and rethrows its error).
    public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try run("BEGIN \(kind.rawValue)")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()
            throw error
        }
        do {
            try run("COMMIT")
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    /// Runs `body` with `synchronous=NORMAL`: in WAL mode its commits stay
    /// atomic and in order but are not fsync'd; the next `synchronous=FULL`
    /// commit makes them durable with it. Only for writes that a crash makes
    /// moot anyway (a row marked `sending` is reset to `queued` on open).
    package func withoutFsync<T>(_ body: () throws -> T) throws -> T {
        try execute("PRAGMA synchronous=NORMAL")
        let result = Result { try body() }
        // Restoring FULL must not fail silently: every later commit depends on it.
        try execute("PRAGMA synchronous=FULL")
        return try result.get()
    }

    private func rollbackQuietly() {
        // A failed COMMIT may already have rolled back; only roll back an open transaction.
        if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
    }
}
