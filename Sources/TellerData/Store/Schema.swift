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
                -- The terminal's calendar day at creation, for the daily limit.
                local_day TEXT NOT NULL,
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
            CREATE INDEX outbox_by_state ON outbox (state);

            -- Running totals, kept by triggers in the same transaction as the
            -- row change, so the limit checks in every enqueue cost the same
            -- with ten rows or ten thousand. Buckets: 'pending' (queued or
            -- sending) and each local day (every row that was not rejected).
            CREATE TABLE outbox_totals (
                bucket TEXT NOT NULL,
                currency TEXT NOT NULL,
                amount_minor INTEGER NOT NULL,
                PRIMARY KEY (bucket, currency)
            ) WITHOUT ROWID;

            CREATE TRIGGER outbox_totals_on_insert AFTER INSERT ON outbox BEGIN
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT NEW.local_day, NEW.currency, NEW.amount_minor WHERE NEW.state != 'rejected'
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT 'pending', NEW.currency, NEW.amount_minor WHERE NEW.state IN ('queued', 'sending')
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
            END;

            CREATE TRIGGER outbox_totals_on_state AFTER UPDATE OF state ON outbox WHEN OLD.state != NEW.state BEGIN
                UPDATE outbox_totals SET amount_minor = amount_minor - OLD.amount_minor
                    WHERE bucket = 'pending' AND currency = OLD.currency
                      AND OLD.state IN ('queued', 'sending') AND NEW.state NOT IN ('queued', 'sending');
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT 'pending', NEW.currency, NEW.amount_minor
                    WHERE NEW.state IN ('queued', 'sending') AND OLD.state NOT IN ('queued', 'sending')
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
                UPDATE outbox_totals SET amount_minor = amount_minor - OLD.amount_minor
                    WHERE bucket = OLD.local_day AND currency = OLD.currency
                      AND NEW.state = 'rejected' AND OLD.state != 'rejected';
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT OLD.local_day, OLD.currency, OLD.amount_minor
                    WHERE OLD.state = 'rejected' AND NEW.state != 'rejected'
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
            END;

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
        Migration(version: 2, name: "why a row is not going out", sql: """
            -- The class of the last failed attempt (SyncProblem.Kind: offline,
            -- timeout, hostBusy, hostError, notUnderstood, mismatch,
            -- redirectRefused, tls, authentication), shown in the queue.
            ALTER TABLE outbox ADD COLUMN last_error_class TEXT;

            -- The sync engine's current problem, one row or none, so that
            -- `teller status` (another process) can say why nothing goes out.
            CREATE TABLE sync_problem (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                kind TEXT NOT NULL,
                detail TEXT NOT NULL,
                since_ms INTEGER NOT NULL
            );
            """),
        Migration(version: 3, name: "time waited, measured on the monotonic clock", sql: """
            -- How long the engine has watched this row wait between attempts,
            -- in elapsed (monotonic) time: the retry horizon counts this, so a
            -- wall clock that jumps never moves a row to needs review.
            ALTER TABLE outbox ADD COLUMN waited_ms INTEGER NOT NULL DEFAULT 0;
            """),
        Migration(version: 4, name: "outbox checks without temporary tables", sql: """
            -- SQLite evaluates a CHECK's IN list of more than two words by
            -- building a temporary b-tree, at every insert: kind's and state's
            -- cost an enqueue about a tenth of its time (perf, teller-bench
            -- enqueue). The same checks spelled with OR cost nothing. A CHECK
            -- cannot be altered, so the table is rebuilt the way SQLite
            -- documents: the same columns in the same order, every row with its
            -- id, AUTOINCREMENT's high-water mark (ids are never reused, even
            -- of rows no longer there), and the index and the triggers made
            -- again as version 1 made them. outbox_totals is not touched: the
            -- copy fires no trigger, and the totals describe the same rows.
            CREATE TABLE outbox_rebuilt (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                idempotency_key TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL CHECK (kind = 'deposit' OR kind = 'withdrawal' OR kind = 'transfer'),
                account_iban TEXT NOT NULL,
                counterparty_iban TEXT,
                amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
                currency TEXT NOT NULL,
                operator_id TEXT NOT NULL,
                created_at_ms INTEGER NOT NULL,
                -- The terminal's calendar day at creation, for the daily limit.
                local_day TEXT NOT NULL,
                payload BLOB NOT NULL,
                state TEXT NOT NULL DEFAULT 'queued'
                    CHECK (state = 'queued' OR state = 'sending' OR state = 'confirmed' OR state = 'rejected' OR state = 'needsReview'),
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at_ms INTEGER,
                last_error TEXT,
                host_reference TEXT,
                reason TEXT,
                acknowledged_at_ms INTEGER,
                acknowledged_by TEXT,
                updated_at_ms INTEGER NOT NULL,
                last_error_class TEXT,
                waited_ms INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO outbox_rebuilt (
                id, idempotency_key, kind, account_iban, counterparty_iban, amount_minor, currency, operator_id,
                created_at_ms, local_day, payload, state, attempts, next_attempt_at_ms, last_error, host_reference,
                reason, acknowledged_at_ms, acknowledged_by, updated_at_ms, last_error_class, waited_ms)
            SELECT
                id, idempotency_key, kind, account_iban, counterparty_iban, amount_minor, currency, operator_id,
                created_at_ms, local_day, payload, state, attempts, next_attempt_at_ms, last_error, host_reference,
                reason, acknowledged_at_ms, acknowledged_by, updated_at_ms, last_error_class, waited_ms
            FROM outbox;
            DELETE FROM sqlite_sequence WHERE name = 'outbox_rebuilt';
            INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_rebuilt', seq FROM sqlite_sequence WHERE name = 'outbox';
            DROP TABLE outbox;
            ALTER TABLE outbox_rebuilt RENAME TO outbox;

            CREATE INDEX outbox_by_state ON outbox (state);

            CREATE TRIGGER outbox_totals_on_insert AFTER INSERT ON outbox BEGIN
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT NEW.local_day, NEW.currency, NEW.amount_minor WHERE NEW.state != 'rejected'
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT 'pending', NEW.currency, NEW.amount_minor WHERE NEW.state IN ('queued', 'sending')
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
            END;

            CREATE TRIGGER outbox_totals_on_state AFTER UPDATE OF state ON outbox WHEN OLD.state != NEW.state BEGIN
                UPDATE outbox_totals SET amount_minor = amount_minor - OLD.amount_minor
                    WHERE bucket = 'pending' AND currency = OLD.currency
                      AND OLD.state IN ('queued', 'sending') AND NEW.state NOT IN ('queued', 'sending');
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT 'pending', NEW.currency, NEW.amount_minor
                    WHERE NEW.state IN ('queued', 'sending') AND OLD.state NOT IN ('queued', 'sending')
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
                UPDATE outbox_totals SET amount_minor = amount_minor - OLD.amount_minor
                    WHERE bucket = OLD.local_day AND currency = OLD.currency
                      AND NEW.state = 'rejected' AND OLD.state != 'rejected';
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT OLD.local_day, OLD.currency, OLD.amount_minor
                    WHERE OLD.state = 'rejected' AND NEW.state != 'rejected'
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
            END;
            """),
    ])
}
