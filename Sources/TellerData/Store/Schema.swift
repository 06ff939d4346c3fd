import SQLite
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
        Migration(version: 5, name: "voids, reversals, the journal, the till and the print queue", sql: """
            -- A queued row an operator voided ('voided') and the key of the
            -- posted payment a reversal undoes ('reverses'), sent to the bank.
            -- 'first_sent_at_ms' is set when a row first goes to 'sending'
            -- and never cleared: a row that left the terminal once may have
            -- reached the bank, so it can no longer be voided. The state's
            -- CHECK cannot be altered, so the table is rebuilt as version 4
            -- rebuilt it: the same columns in the same order, every row with
            -- its id, AUTOINCREMENT's high-water mark, the index and the
            -- triggers made again. A voided row counts towards neither the
            -- pending total nor its day, like a rejected one.
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
                    CHECK (state = 'queued' OR state = 'sending' OR state = 'confirmed' OR state = 'rejected' OR state = 'needsReview'
                           OR state = 'voided'),
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at_ms INTEGER,
                last_error TEXT,
                host_reference TEXT,
                reason TEXT,
                acknowledged_at_ms INTEGER,
                acknowledged_by TEXT,
                updated_at_ms INTEGER NOT NULL,
                last_error_class TEXT,
                waited_ms INTEGER NOT NULL DEFAULT 0,
                reverses TEXT,
                first_sent_at_ms INTEGER,
                -- The cash drawer session a cash payment moved (tills.id); NULL
                -- for a transfer, or when the operator had no till open.
                till_id INTEGER,
                -- The supervisor who approved what a limit refused; NULL otherwise.
                approved_by TEXT
            );
            INSERT INTO outbox_rebuilt (
                id, idempotency_key, kind, account_iban, counterparty_iban, amount_minor, currency, operator_id,
                created_at_ms, local_day, payload, state, attempts, next_attempt_at_ms, last_error, host_reference,
                reason, acknowledged_at_ms, acknowledged_by, updated_at_ms, last_error_class, waited_ms, first_sent_at_ms)
            SELECT
                id, idempotency_key, kind, account_iban, counterparty_iban, amount_minor, currency, operator_id,
                created_at_ms, local_day, payload, state, attempts, next_attempt_at_ms, last_error, host_reference,
                reason, acknowledged_at_ms, acknowledged_by, updated_at_ms, last_error_class, waited_ms,
                -- A row that was answered or tried may have reached the bank.
                CASE WHEN state = 'queued' AND attempts = 0 THEN NULL ELSE updated_at_ms END
            FROM outbox;
            DELETE FROM sqlite_sequence WHERE name = 'outbox_rebuilt';
            INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_rebuilt', seq FROM sqlite_sequence WHERE name = 'outbox';
            DROP TABLE outbox;
            ALTER TABLE outbox_rebuilt RENAME TO outbox;

            CREATE INDEX outbox_by_state ON outbox (state);
            -- At most one reversal that may still post per payment.
            CREATE UNIQUE INDEX outbox_one_reversal ON outbox (reverses)
                WHERE reverses IS NOT NULL AND state != 'voided' AND state != 'rejected';

            CREATE TRIGGER outbox_totals_on_insert AFTER INSERT ON outbox BEGIN
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT NEW.local_day, NEW.currency, NEW.amount_minor WHERE NEW.state != 'rejected' AND NEW.state != 'voided'
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT 'pending', NEW.currency, NEW.amount_minor WHERE NEW.state = 'queued' OR NEW.state = 'sending'
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
            END;

            CREATE TRIGGER outbox_totals_on_state AFTER UPDATE OF state ON outbox WHEN OLD.state != NEW.state BEGIN
                UPDATE outbox_totals SET amount_minor = amount_minor - OLD.amount_minor
                    WHERE bucket = 'pending' AND currency = OLD.currency
                      AND (OLD.state = 'queued' OR OLD.state = 'sending') AND NEW.state != 'queued' AND NEW.state != 'sending';
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT 'pending', NEW.currency, NEW.amount_minor
                    WHERE (NEW.state = 'queued' OR NEW.state = 'sending') AND OLD.state != 'queued' AND OLD.state != 'sending'
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
                UPDATE outbox_totals SET amount_minor = amount_minor - OLD.amount_minor
                    WHERE bucket = OLD.local_day AND currency = OLD.currency
                      AND (NEW.state = 'rejected' OR NEW.state = 'voided') AND OLD.state != 'rejected' AND OLD.state != 'voided';
                INSERT INTO outbox_totals (bucket, currency, amount_minor)
                    SELECT OLD.local_day, OLD.currency, OLD.amount_minor
                    WHERE (OLD.state = 'rejected' OR OLD.state = 'voided') AND NEW.state != 'rejected' AND NEW.state != 'voided'
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + excluded.amount_minor;
            END;

            -- The electronic journal (docs/architecture.md, "Journal"): one row
            -- per sign-in, payment, outcome, void, reversal and so on, each
            -- written in the transaction of the change it records. Each row's
            -- hash is SHA-256 over the previous row's hash (32 bytes; 32 zero
            -- bytes before the first) and the row's canonical bytes, in hex.
            -- AUTOINCREMENT keeps the highest number ever given in
            -- sqlite_sequence, so removed newest rows show as a gap too.
            -- No CHECK on kind: a new kind needs no rebuild of a table whose
            -- rows can never be copied and deleted.
            CREATE TABLE journal (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                time_ms INTEGER NOT NULL,
                kind TEXT NOT NULL,
                operator_id TEXT NOT NULL,
                supervisor_id TEXT,
                payload TEXT NOT NULL,
                prev_hash TEXT NOT NULL,
                hash TEXT NOT NULL
            );
            -- Append-only in SQL too: no row is ever changed or removed, and a
            -- new row continues the chain (the next number, the last hash).
            -- The till: one cash drawer session per operator on this terminal,
            -- opened with a counted float and closed with a count. Counts are
            -- JSON objects of denomination (minor units) to pieces, exactly
            -- as counted; the totals beside them are what they add up to.
            -- 'expected_minor' is the cash position when it was closed.
            CREATE TABLE tills (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                operator_id TEXT NOT NULL,
                currency TEXT NOT NULL,
                opened_at_ms INTEGER NOT NULL,
                opening_count TEXT NOT NULL,
                opening_minor INTEGER NOT NULL CHECK (opening_minor >= 0),
                closed_at_ms INTEGER,
                closing_count TEXT,
                counted_minor INTEGER CHECK (counted_minor >= 0),
                expected_minor INTEGER,
                approved_by TEXT,
                CHECK ((closed_at_ms IS NULL) = (counted_minor IS NULL) AND (closed_at_ms IS NULL) = (expected_minor IS NULL))
            );
            CREATE UNIQUE INDEX tills_one_open_per_operator ON tills (operator_id) WHERE closed_at_ms IS NULL;

            -- Till openings and closings for the bank, each its own record under
            -- its own idempotency key, drained after the payments (host-api
            -- "Till events").
            CREATE TABLE till_events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                idempotency_key TEXT NOT NULL UNIQUE,
                till_id INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind = 'opened' OR kind = 'closed'),
                payload BLOB NOT NULL,
                created_at_ms INTEGER NOT NULL,
                state TEXT NOT NULL DEFAULT 'queued' CHECK (state = 'queued' OR state = 'confirmed' OR state = 'rejected'),
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at_ms INTEGER,
                last_error TEXT,
                host_reference TEXT,
                updated_at_ms INTEGER NOT NULL,
                UNIQUE (till_id, kind)
            );

            -- Slips waiting for the printer. A job is rebuilt from what it
            -- names when it prints ('receipt': the payment's idempotency key;
            -- 'till_report': the till's id), in the language it was asked in.
            -- 'printing' is set, and committed, before the first byte goes
            -- out: a job found 'printing' at start was cut off and prints
            -- again marked as a copy. Printed jobs stay, as the journal's 'print'
            -- entries do.
            CREATE TABLE print_jobs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                document TEXT NOT NULL CHECK (document = 'receipt' OR document = 'till_report'),
                subject TEXT NOT NULL,
                language TEXT NOT NULL,
                copy INTEGER NOT NULL DEFAULT 0 CHECK (copy = 0 OR copy = 1),
                state TEXT NOT NULL DEFAULT 'queued' CHECK (state = 'queued' OR state = 'printing' OR state = 'printed'),
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                requested_by TEXT NOT NULL,
                created_at_ms INTEGER NOT NULL,
                printed_at_ms INTEGER
            );
            CREATE INDEX print_jobs_waiting ON print_jobs (id) WHERE state != 'printed';

            CREATE TRIGGER journal_never_updated BEFORE UPDATE ON journal BEGIN
                SELECT RAISE(ABORT, 'the journal is append-only: entries are never changed');
            END;
            CREATE TRIGGER journal_never_deleted BEFORE DELETE ON journal BEGIN
                SELECT RAISE(ABORT, 'the journal is append-only: entries are never deleted');
            END;
            CREATE TRIGGER journal_continues_the_chain BEFORE INSERT ON journal BEGIN
                SELECT RAISE(ABORT, 'a journal entry must take the next sequence number and name the last hash')
                WHERE NEW.sequence IS NOT coalesce((SELECT max(sequence) FROM journal), 0) + 1
                   OR NEW.prev_hash IS NOT coalesce((SELECT hash FROM journal ORDER BY sequence DESC LIMIT 1),
                                                    '0000000000000000000000000000000000000000000000000000000000000000');
            END;
            """),
        Migration(version: 6, name: "retention: journal checkpoints, guards on what may be removed, prune counters", sql: """
            -- Retention (docs/architecture.md, "Retention") removes what the
            -- bank has acknowledged once it is older than retention_days.
            -- The journal stays a chain: before its oldest entries go, a
            -- 'checkpoint' entry is appended that names the sequence and hash
            -- of the last one removed ('through', 'through_hash' in its JSON
            -- payload) and is hashed into the chain like any entry. Only a
            -- prefix may go, one entry at a time from the oldest, and only
            -- entries the newest checkpoint covers (never that checkpoint
            -- itself); the entry it names must have the hash it names. Only
            -- the newest checkpoint is asked, so each removal costs the same
            -- however many checkpoints there are. Every UPDATE is still refused.
            CREATE INDEX journal_checkpoints ON journal (sequence) WHERE kind = 'checkpoint';
            DROP TRIGGER journal_never_deleted;
            CREATE TRIGGER journal_never_deleted BEFORE DELETE ON journal
            WHEN OLD.sequence IS NOT (SELECT min(sequence) FROM journal)
              OR OLD.sequence >= coalesce((SELECT max(sequence) FROM journal WHERE kind = 'checkpoint'), 0)
              OR OLD.sequence > (SELECT json_extract(payload, '$.through') FROM journal WHERE kind = 'checkpoint' ORDER BY sequence DESC LIMIT 1)
              OR (OLD.sequence = (SELECT json_extract(payload, '$.through') FROM journal WHERE kind = 'checkpoint' ORDER BY sequence DESC LIMIT 1)
                  AND OLD.hash IS NOT (SELECT json_extract(payload, '$.through_hash') FROM journal WHERE kind = 'checkpoint' ORDER BY sequence DESC LIMIT 1))
            BEGIN
                SELECT RAISE(ABORT, 'the journal is append-only: only its oldest entries may be removed, once a checkpoint carries the chain over them');
            END;

            -- What retention may never remove, refused in SQL too: a payment
            -- the bank has not answered for good (queued, sending, needs
            -- review) or whose rejection no operator has acknowledged, a till
            -- event the bank has not recorded, an open till, a slip not printed.
            CREATE TRIGGER outbox_keeps_unsettled BEFORE DELETE ON outbox
            WHEN NOT (OLD.state = 'confirmed' OR OLD.state = 'voided' OR (OLD.state = 'rejected' AND OLD.acknowledged_at_ms IS NOT NULL))
            BEGIN
                SELECT RAISE(ABORT, 'an outbox row the bank has not settled (or whose rejection is not acknowledged) is never removed');
            END;
            CREATE TRIGGER till_events_keep_queued BEFORE DELETE ON till_events WHEN OLD.state = 'queued' BEGIN
                SELECT RAISE(ABORT, 'a till event the bank has not recorded is never removed');
            END;
            CREATE TRIGGER tills_keep_open BEFORE DELETE ON tills WHEN OLD.closed_at_ms IS NULL BEGIN
                SELECT RAISE(ABORT, 'an open till is never removed');
            END;
            CREATE TRIGGER print_jobs_keep_waiting BEFORE DELETE ON print_jobs WHEN OLD.state != 'printed' BEGIN
                SELECT RAISE(ABORT, 'a print job not yet printed is never removed');
            END;

            -- A till's position and report read its payments; retention asks
            -- whether a till still has any. Without it both read the whole outbox.
            CREATE INDEX outbox_by_till ON outbox (till_id) WHERE till_id IS NOT NULL;

            -- What retention removed so far and when, one row, for `teller
            -- status` and the metrics (another process), and why the oldest
            -- journal day waits ('held_back', NULL when nothing holds it).
            CREATE TABLE retention (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                last_pruned_at_ms INTEGER,
                last_pass_at_ms INTEGER,
                outbox_rows INTEGER NOT NULL DEFAULT 0,
                tills INTEGER NOT NULL DEFAULT 0,
                till_events INTEGER NOT NULL DEFAULT 0,
                print_jobs INTEGER NOT NULL DEFAULT 0,
                journal_entries INTEGER NOT NULL DEFAULT 0,
                held_back TEXT
            );
            INSERT INTO retention (id) VALUES (1);
            """),
        Migration(version: 7, name: "status in constant time: rows per state kept with the totals, indexes of what waits", sql: """
            -- `teller status`, the status bar and every start count the
            -- outbox per state; with retention_days of settled rows kept
            -- that was a pass over the state index (180 pages at 36,000
            -- rows). The counts are kept instead in the running totals, in
            -- the same transaction as the row: bucket 'rows:<state>',
            -- currency '', amount_minor the number of rows. They share the
            -- totals' page, which an enqueue writes anyway (a table of their
            -- own cost every deposit a page more). A state the CHECK does
            -- not know (a file edited by hand) gets a bucket of its own, so
            -- that status names it as it did when it counted the table.
            -- `teller check --full` compares them with the table. A later
            -- migration that rebuilds the outbox by copying must count again.
            INSERT INTO outbox_totals (bucket, currency, amount_minor) SELECT 'rows:' || state, '', count(*) FROM outbox GROUP BY state;
            CREATE TRIGGER outbox_rows_on_insert AFTER INSERT ON outbox BEGIN
                INSERT INTO outbox_totals (bucket, currency, amount_minor) SELECT 'rows:' || NEW.state, '', 1 WHERE true
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + 1;
            END;
            CREATE TRIGGER outbox_rows_on_state AFTER UPDATE OF state ON outbox WHEN OLD.state != NEW.state BEGIN
                UPDATE outbox_totals SET amount_minor = amount_minor - 1 WHERE bucket = 'rows:' || OLD.state AND currency = '';
                INSERT INTO outbox_totals (bucket, currency, amount_minor) SELECT 'rows:' || NEW.state, '', 1 WHERE true
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + 1;
            END;
            CREATE TRIGGER outbox_rows_on_delete AFTER DELETE ON outbox BEGIN
                UPDATE outbox_totals SET amount_minor = amount_minor - 1 WHERE bucket = 'rows:' || OLD.state AND currency = '';
            END;

            -- The till events still to send, read on every open and by the
            -- sync engine: without it, a scan of every till event kept.
            CREATE INDEX till_events_queued ON till_events (id) WHERE state = 'queued';
            """),
        Migration(version: 8, name: "the rejections and reviews no one has acknowledged, counted with the totals", sql: """
            -- The status bar, `teller status` and the queue screen ask how many
            -- rejections and reviews no operator has acknowledged; that was a
            -- pass over every rejected row retention keeps, a row page each
            -- (360 at 180 days). Counted instead with the totals, as schema 7
            -- counts the rows per state: bucket 'unacknowledged:<state>',
            -- currency '', for rejected and needsReview rows whose
            -- acknowledged_at_ms is NULL. The queue screen then reads only as
            -- many of the newest rejected rows as are unacknowledged, and none
            -- when none are. An index of them cost every enqueue about 0.1 ms.
            INSERT INTO outbox_totals (bucket, currency, amount_minor)
                SELECT 'unacknowledged:' || state, '', count(*) FROM outbox
                WHERE state IN ('rejected', 'needsReview') AND acknowledged_at_ms IS NULL GROUP BY state;
            CREATE TRIGGER outbox_unacknowledged_on_insert AFTER INSERT ON outbox
            WHEN NEW.state IN ('rejected', 'needsReview') AND NEW.acknowledged_at_ms IS NULL BEGIN
                INSERT INTO outbox_totals (bucket, currency, amount_minor) SELECT 'unacknowledged:' || NEW.state, '', 1 WHERE true
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + 1;
            END;
            CREATE TRIGGER outbox_unacknowledged_on_update AFTER UPDATE OF state, acknowledged_at_ms ON outbox
            WHEN (OLD.state IN ('rejected', 'needsReview') AND OLD.acknowledged_at_ms IS NULL)
              OR (NEW.state IN ('rejected', 'needsReview') AND NEW.acknowledged_at_ms IS NULL) BEGIN
                UPDATE outbox_totals SET amount_minor = amount_minor - 1
                    WHERE bucket = 'unacknowledged:' || OLD.state AND currency = ''
                      AND OLD.state IN ('rejected', 'needsReview') AND OLD.acknowledged_at_ms IS NULL;
                INSERT INTO outbox_totals (bucket, currency, amount_minor) SELECT 'unacknowledged:' || NEW.state, '', 1
                    WHERE NEW.state IN ('rejected', 'needsReview') AND NEW.acknowledged_at_ms IS NULL
                    ON CONFLICT (bucket, currency) DO UPDATE SET amount_minor = amount_minor + 1;
            END;
            CREATE TRIGGER outbox_unacknowledged_on_delete AFTER DELETE ON outbox
            WHEN OLD.state IN ('rejected', 'needsReview') AND OLD.acknowledged_at_ms IS NULL BEGIN
                UPDATE outbox_totals SET amount_minor = amount_minor - 1 WHERE bucket = 'unacknowledged:' || OLD.state AND currency = '';
            END;
            """),
    ])
}
