/// The terminal database's schema, one recorded migration per version.
/// Never edit a shipped migration; add the next version instead.
enum Schema {
    static let migrator = Migrator([
        Migration(version: 1, name: "outbox, account cache, operators", sql: """
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                idempotency_key TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL CHECK (kind IN ('deposit', 'withdrawal', 'transfer')),
                account_iban TEXT NOT NULL,
                counterparty_iban TEXT,
                amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
                currency TEXT NOT NULL,
                operator_id TEXT NOT NULL,
                created_at_ms INTEGER NOT NULL,
                payload BLOB NOT NULL,
                state TEXT NOT NULL DEFAULT 'queued'
                    CHECK (state IN ('queued', 'sending', 'confirmed', 'rejected', 'needsReview')),
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at_ms INTEGER,
                last_error TEXT,
                host_reference TEXT,
                reason TEXT,
                acknowledged_at_ms INTEGER,
                acknowledged_by TEXT,
                updated_at_ms INTEGER NOT NULL
            );
            CREATE INDEX outbox_by_state ON outbox (state, id);
            CREATE INDEX outbox_by_created ON outbox (created_at_ms);
            CREATE INDEX outbox_by_account ON outbox (account_iban, state);

            CREATE TABLE account_cache (
                iban TEXT PRIMARY KEY,
                holder TEXT NOT NULL,
                currency TEXT NOT NULL,
                balance_minor INTEGER NOT NULL,
                available_minor INTEGER NOT NULL,
                as_of_ms INTEGER NOT NULL,
                recent BLOB NOT NULL,
                fetched_at_ms INTEGER NOT NULL
            );

            CREATE TABLE operators (
                operator_id TEXT PRIMARY KEY,
                display_name TEXT NOT NULL,
                verifier TEXT,
                failed_attempts INTEGER NOT NULL DEFAULT 0,
                locked_until_ms INTEGER,
                last_online_at_ms INTEGER
            );
            """),
    ])
}
