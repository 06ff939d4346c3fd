@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite

/// Versions 4 (its CHECKs without IN lists) and 5 (voided rows, reversals)
/// rebuild the outbox. A terminal updated with rows in its queue must come
/// out with every row, id, total and trigger as it had them, and ids must
/// go on from where they stopped.
@Suite struct SchemaMigrationTests {
    let directory = TemporaryDirectory()
    let clock = FixedClock(Fixtures.noon)

    static let columns = [
        "id", "idempotency_key", "kind", "account_iban", "counterparty_iban", "amount_minor", "currency", "operator_id",
        "created_at_ms", "local_day", "payload", "state", "attempts", "next_attempt_at_ms", "last_error", "host_reference",
        "reason", "acknowledged_at_ms", "acknowledged_by", "updated_at_ms", "last_error_class", "waited_ms",
    ]

    /// Every outbox row, every column as SQL quotes it (blobs as hex, NULL as NULL).
    static func rows(_ database: Database) throws -> [String] {
        try database.query("SELECT \(columns.map { "quote(\($0))" }.joined(separator: " || '|' || ")) FROM outbox ORDER BY id") { $0.text(0) }
    }

    static func totals(_ database: Database) throws -> [String] {
        // The money totals; schema 7's rows per state ('rows:…') and schema 8's unacknowledged
        // ('unacknowledged:…') are compared with the table on their own.
        try database.query("""
            SELECT bucket || ' ' || currency || ' ' || amount_minor FROM outbox_totals
            WHERE bucket NOT LIKE 'rows:%' AND bucket NOT LIKE 'unacknowledged:%' ORDER BY bucket, currency
            """) { $0.text(0) }
    }

    /// Whether inserting an outbox row builds a temporary b-tree (what the IN lists cost).
    static func insertBuildsATemporaryTable(_ database: Database) throws -> Bool {
        try database.query("""
            EXPLAIN INSERT INTO outbox (idempotency_key, kind, account_iban, amount_minor, currency, operator_id,
                                        created_at_ms, local_day, payload, updated_at_ms)
            VALUES ('k', 'deposit', 'DE89370400440532013000', 1, 'EUR', '1001', 0, '2026-11-30', x'', 0)
            """) { $0.text(1) }.contains("OpenEphemeral")
    }

    @Test func aVersion3OutboxKeepsItsRowsTotalsAndIdsThroughVersions4And5() async throws {
        let path = directory.file("teller.db")
        let before: (rows: [String], totals: [String])
        do {
            // A terminal as version 3 left it: rows in every state, one row gone from the top.
            let database = try Database(path: path)
            try Migrator(Schema.migrator.migrations.filter { $0.version <= 3 }).migrate(database, now: clock.now())
            #expect(try Self.insertBuildsATemporaryTable(database), "version 3's CHECKs build temporary tables; this test would prove nothing")
            let kinds: [(String, String?)] = [("deposit", nil), ("withdrawal", nil), ("transfer", "GB29NWBK60161331926819")]
            for index in 0..<7 {
                let (kind, counterparty) = kinds[index % kinds.count]
                try database.run("""
                    INSERT INTO outbox (idempotency_key, kind, account_iban, counterparty_iban, amount_minor, currency,
                                        operator_id, created_at_ms, local_day, payload, state, updated_at_ms)
                    VALUES (?, ?, 'DE89370400440532013000', ?, ?, 'EUR', '1001', ?, ?, ?, 'queued', ?)
                    """, [.text(IdempotencyKey.random().rawValue), .text(kind), counterparty.map { .text($0) } ?? .null,
                          .integer(Int64(100 * (index + 1))), .integer(1_795_000_000_000 + Int64(index)),
                          .text(index < 4 ? "2026-11-18" : "2026-11-19"), .blob(Array("{\"n\":\(index)}".utf8)), .integer(1_795_000_000_000)])
            }
            try database.run("UPDATE outbox SET state = 'confirmed', host_reference = 'H-1', attempts = 1 WHERE id = 1")
            try database.run("UPDATE outbox SET state = 'rejected', reason = 'account_blocked', acknowledged_at_ms = 5, acknowledged_by = '1001' WHERE id = 2")
            try database.run("UPDATE outbox SET state = 'needsReview', reason = 'mismatch', last_error_class = 'mismatch', waited_ms = 42 WHERE id = 3")
            try database.run("UPDATE outbox SET attempts = 2, next_attempt_at_ms = 9, last_error = 'timed out', last_error_class = 'timeout' WHERE id = 4")
            try database.run("DELETE FROM outbox WHERE id = 7")
            before = (try Self.rows(database), try Self.totals(database))
        }

        let store = try TellerStore(path: path, limits: Fixtures.limits, clock: clock, zone: .utc)
        try await store.withDatabase { (database: Database) throws in
            #expect(try Migrator.currentVersion(of: database) == Schema.migrator.knownVersion)
            #expect(try Self.rows(database) == before.rows)
            #expect(try Self.totals(database) == before.totals)
            #expect(try !Self.insertBuildsATemporaryTable(database))
            #expect(try database.query("SELECT name FROM sqlite_schema WHERE tbl_name = 'outbox' AND type IN ('index', 'trigger') ORDER BY name") { $0.text(0) }
                    == ["outbox_by_state", "outbox_by_till", "outbox_keeps_unsettled", "outbox_one_reversal",
                        "outbox_rows_on_delete", "outbox_rows_on_insert", "outbox_rows_on_state", "outbox_totals_on_insert", "outbox_totals_on_state",
                        "outbox_unacknowledged_on_delete", "outbox_unacknowledged_on_insert", "outbox_unacknowledged_on_update",
                        "sqlite_autoindex_outbox_1"])
            // Schema 8 counted the rejections and reviews no one acknowledged that the migrations carried.
            let open = try database.query("""
                SELECT state || ':' || count(*) FROM outbox WHERE state IN ('rejected', 'needsReview') AND acknowledged_at_ms IS NULL
                GROUP BY state ORDER BY state
                """) { $0.text(0) }
            #expect(try database.query("""
                SELECT substr(bucket, 16) || ':' || amount_minor FROM outbox_totals WHERE bucket LIKE 'unacknowledged:%' AND amount_minor > 0 ORDER BY bucket
                """) { $0.text(0) } == open)
            // Schema 7 counted the rows the migrations carried, per state, and the triggers keep the count from there.
            let held = try database.query("SELECT state || ':' || count(*) FROM outbox GROUP BY state ORDER BY state") { $0.text(0) }
            #expect(try database.query("SELECT substr(bucket, 6) || ':' || amount_minor FROM outbox_totals WHERE bucket LIKE 'rows:%' AND amount_minor > 0 ORDER BY bucket") { $0.text(0) } == held)
            #expect(held.count >= 3, "\(held)")
            // Every row that was answered or tried may have reached the bank: none of those can be voided.
            #expect(try database.query("SELECT id FROM outbox WHERE first_sent_at_ms IS NULL ORDER BY id") { $0.int64(0) } == [5, 6])
            #expect(try database.queryInt64("SELECT count(*) FROM journal") == 0)
            #expect(try database.queryText("PRAGMA integrity_check") == "ok")
            #expect(throws: SQLiteError.self) { try database.run("UPDATE outbox SET kind = 'loan' WHERE id = 5") }
            #expect(throws: SQLiteError.self) { try database.run("UPDATE outbox SET state = 'archived' WHERE id = 5") }
        }

        // Ids go on after the row that is gone; the triggers keep the totals.
        let entry = try await store.enqueue(Fixtures.deposit(1_000))
        #expect(entry.id == 8)
        try await store.withDatabase { (database: Database) throws in
            let totals = try Self.totals(database)
            try database.run("UPDATE outbox SET state = 'rejected' WHERE id = 8")
            #expect(try Self.totals(database) != totals)
            try database.run("UPDATE outbox SET state = 'queued' WHERE id = 8")
            #expect(try Self.totals(database) == totals)
        }
        #expect(try await store.entries().map(\.id) == [8, 6, 5, 4, 3, 2, 1])
    }

    @Test func aNewDatabaseInsertsWithoutTemporaryTables() async throws {
        let store = try TellerStore(path: directory.file("new.db"), limits: Fixtures.limits, clock: clock, zone: .utc)
        #expect(try await store.withDatabase { try Self.insertBuildsATemporaryTable($0) } == false)
    }
}
