@testable import ProcessHarness
import Foundation
import TellerCore
@testable import TellerData
@testable import SQLite

/// Triggers a test adds to a terminal's real database file, so that SQLite
/// itself says in which order the drain committed its state changes, and
/// what the row before each one looked like at that moment.
///
/// The store tolerates them: it refuses unknown schema versions, not extra
/// tables or triggers.
enum OutboxWitness {
    /// One committed state change of one row, in commit order.
    struct Transition: Equatable, Sendable, CustomStringConvertible {
        let id: Int64
        let state: String
        /// The state of the row just before it in queue order, as this
        /// change saw it (nil for the first row).
        let previousRowState: String?

        var description: String { "\(id)→\(state)" + (previousRowState.map { " (previous row \($0))" } ?? "") }
    }

    /// Logs every state change of an outbox row from now on.
    static func install(in database: Database) throws {
        try database.execute("""
            CREATE TABLE test_transitions (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id INTEGER NOT NULL,
                state TEXT NOT NULL,
                previous_row_state TEXT
            );
            CREATE TRIGGER test_transitions_log AFTER UPDATE OF state ON outbox WHEN OLD.state != NEW.state BEGIN
                INSERT INTO test_transitions (id, state, previous_row_state)
                VALUES (NEW.id, NEW.state, (SELECT state FROM outbox WHERE id < NEW.id ORDER BY id DESC LIMIT 1));
            END;
            """)
    }

    static func transitions(in database: Database) throws -> [Transition] {
        try database.query("SELECT id, state, previous_row_state FROM test_transitions ORDER BY seq") {
            Transition(id: $0.int64(0), state: $0.text(1), previousRowState: $0.optionalText(2))
        }
    }

    /// Makes the commit that moves row `id` into `state` take seconds of CPU
    /// (a cross join of 600³ rows inside the transaction), so that whatever
    /// the drain does meanwhile really happens while that commit is in flight.
    static func slowDown(_ id: Int64, becoming state: OutboxState.Kind, in database: Database) throws {
        try database.execute("""
            CREATE TABLE test_burn (x INTEGER);
            WITH RECURSIVE n(x) AS (VALUES (1) UNION ALL SELECT x + 1 FROM n WHERE x < 600) INSERT INTO test_burn SELECT x FROM n;
            CREATE TRIGGER test_slow_commit AFTER UPDATE OF state ON outbox WHEN NEW.id = \(id) AND NEW.state = '\(state.rawValue)' AND OLD.state != NEW.state BEGIN
                SELECT count(*) FROM test_burn a, test_burn b, test_burn c;
            END;
            """)
    }

    static func removeSlowDown(in database: Database) throws {
        try database.execute("DROP TRIGGER test_slow_commit")
    }

    /// Makes every commit that confirms row `id` fail, as a full or broken disk would.
    static func refuseConfirm(of id: Int64, in database: Database) throws {
        try database.execute("""
            CREATE TRIGGER test_refuse_confirm BEFORE UPDATE OF state ON outbox WHEN NEW.state = 'confirmed' AND NEW.id = \(id) BEGIN
                SELECT RAISE(ABORT, 'the test refuses to record this outcome');
            END;
            """)
    }

    static func removeRefusal(in database: Database) throws {
        try database.execute("DROP TRIGGER test_refuse_confirm")
    }

    /// A connection of the test's own to the terminal's database in `directory`.
    static func open(_ directory: String) throws -> Database {
        try Database(path: (directory as NSString).appendingPathComponent(TellerStore.fileName))
    }
}
