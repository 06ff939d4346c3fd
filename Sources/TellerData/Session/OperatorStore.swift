import FoundationEssentials
import TellerCore
import SQLite

/// What the terminal remembers of an operator between sign-ins.
struct OperatorRecord: Sendable {
    let displayName: String
    /// The Argon2id verifier from the last online sign-in; nil if never online here.
    let verifier: String?
    let failedAttempts: Int
    let lockedUntil: Date?
}

/// The operators' offline verifiers, failed attempts and lockouts
/// (`operators`). Journaling a sign-in is the owner's: ``TellerStore``
/// wraps these writes and the journal entry in one transaction.
///
/// Not thread-safe: a part of ``TellerStore``, used on its connection only.
final class OperatorStore {
    private let database: Database

    init(database: Database) {
        self.database = database
    }

    func record(_ id: OperatorID) throws -> OperatorRecord? {
        try database.queryFirst("SELECT display_name, verifier, failed_attempts, locked_until_ms FROM operators WHERE operator_id = ?", [.text(id.rawValue)]) {
            (row: Statement) throws(SQLiteError) in
            OperatorRecord(displayName: try row.text("display_name"), verifier: try row.optionalText("verifier"), failedAttempts: Int(try row.int64("failed_attempts")),
                           lockedUntil: try row.optionalInt64("locked_until_ms").map(Date.init(millisecondsSince1970:)))
        }
    }

    /// Stores the verifier of a PIN the host just accepted and clears failures.
    func storeVerifier(_ verifier: String, of signedIn: Operator, at now: Date) throws {
        try database.run("""
            INSERT INTO operators (operator_id, display_name, verifier, failed_attempts, locked_until_ms, last_online_at_ms)
            VALUES (?, ?, ?, 0, NULL, ?)
            ON CONFLICT (operator_id) DO UPDATE SET display_name = excluded.display_name, verifier = excluded.verifier,
                failed_attempts = 0, locked_until_ms = NULL, last_online_at_ms = excluded.last_online_at_ms
            """, [.text(signedIn.id.rawValue), .text(signedIn.displayName), .text(verifier), .integer(now.millisecondsSince1970)])
    }

    func clearFailedAttempts(_ id: OperatorID) throws {
        try database.run("UPDATE operators SET failed_attempts = 0, locked_until_ms = NULL WHERE operator_id = ?", [.text(id.rawValue)])
    }

    /// Counts one wrong PIN; at `maximum` failures the operator is locked
    /// out until `lockout` has passed. Survives restarts.
    /// - Returns: attempts left, and the lockout end when this failure locked.
    func recordFailedAttempt(_ id: OperatorID, maximum: Int, lockout: TimeInterval, at now: Date) throws -> (attemptsLeft: Int, lockedUntil: Date?) {
        try database.inTransaction(.immediate) {
            try database.run("""
                INSERT INTO operators (operator_id, display_name, failed_attempts) VALUES (?, ?, 1)
                ON CONFLICT (operator_id) DO UPDATE SET failed_attempts = failed_attempts + 1
                """, [.text(id.rawValue), .text(id.rawValue)])
            let failures = Int(try database.queryInt64("SELECT failed_attempts FROM operators WHERE operator_id = ?", [.text(id.rawValue)]) ?? 1)
            guard failures >= maximum else { return (maximum - failures, nil) }
            let until = now.addingTimeInterval(lockout)
            try database.run("UPDATE operators SET failed_attempts = 0, locked_until_ms = ? WHERE operator_id = ?", [.integer(until.millisecondsSince1970), .text(id.rawValue)])
            return (0, until)
        }
    }

    /// Locks the operator out until `until` (e.g. the host's 429 Retry-After).
    func lockOut(_ id: OperatorID, until: Date) throws {
        try database.run("""
            INSERT INTO operators (operator_id, display_name, locked_until_ms) VALUES (?, ?, ?)
            ON CONFLICT (operator_id) DO UPDATE SET locked_until_ms = excluded.locked_until_ms
            """, [.text(id.rawValue), .text(id.rawValue), .integer(until.millisecondsSince1970)])
    }
}
