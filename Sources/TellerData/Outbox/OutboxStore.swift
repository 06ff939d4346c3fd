import FoundationEssentials
import TellerCore
import SQLite

/// The payments waiting for and answered by the bank (`outbox`, with its
/// `outbox_totals`): each row's insert under the limits, its void, and the
/// reads of the queue. Journaling, receipts and the till a cash payment
/// moves are the owner's: ``TellerStore`` wraps them and these writes in
/// one transaction.
///
/// Not thread-safe: a part of ``TellerStore``, used on its connection only.
final class OutboxStore {
    let database: Database
    /// The account snapshots an offline withdrawal is checked against.
    private let accounts: AccountCache
    private let limits: Limits
    /// Whose wall clock says which day it is, for the daily terminal limit.
    private let zone: LocalTime.Zone
    /// The day ``localDay(_:)`` named last, and the minute (since 1970, UTC) it named it for.
    private var namedDay: (minute: Int64, name: String)?

    init(database: Database, accounts: AccountCache, limits: Limits, zone: LocalTime.Zone) {
        self.database = database
        self.accounts = accounts
        self.limits = limits
        self.zone = zone
    }

    /// Checks `request` against the online or offline limits at `now`,
    /// inside the caller's transaction.
    /// - Returns: the counter limit a supervisor's approval lifted, if any.
    func checkLimits(_ request: TransactionRequest, online: Bool, at now: Date) throws -> LimitViolation? {
        let context = try limitContext(kind: request.kind, account: request.account, isOnline: online, now: now)
        // A supervisor's approval lifts the counter limits only; the one it lifted is journaled with it.
        var overridden: LimitViolation?
        if request.approvedBy != nil {
            do throws(LimitViolation) { try limits.check(request.amount, kind: request.kind, context: context) } catch { overridden = error }
        }
        try limits.check(request.amount, kind: request.kind, context: context, approved: request.approvedBy != nil)
        return overridden
    }

    /// Inserts one queued row with a fresh key and its frozen body, inside
    /// the caller's transaction.
    /// - Parameters:
    ///   - reverses: the payment it reverses.
    ///   - till: the open till it moves cash in, or nil.
    ///   - now: the row's time; `verified` whether the clock was above its trusted floor.
    func insert(_ request: TransactionRequest, reverses: IdempotencyKey?, till: Int64?, at now: Date, verified: Bool) throws -> OutboxEntry {
        let key = IdempotencyKey.random()
        let payload = WireTransaction(request, key: key, createdAt: now, clockUnverified: !verified, reverses: reverses).encoded()
        try database.run("""
            INSERT INTO outbox (idempotency_key, kind, account_iban, counterparty_iban, amount_minor, currency,
                                operator_id, created_at_ms, local_day, payload, state, updated_at_ms, reverses, till_id, approved_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .text(key.rawValue), .text(request.kind.rawValue), .text(request.account.electronic),
                request.counterparty.map { .text($0.electronic) } ?? .null, .integer(request.amount.minorUnits),
                .text(request.amount.currency.code), .text(request.operatorID.rawValue),
                .integer(now.millisecondsSince1970), .text(localDay(now)), .blob(payload), .state(.queued),
                .integer(now.millisecondsSince1970), reverses.map { .text($0.rawValue) } ?? .null,
                till.map { .integer($0) } ?? .null, request.approvedBy.map { .text($0.rawValue) } ?? .null,
            ])
        return OutboxEntry(id: database.lastInsertRowID, key: key, request: request, createdAt: now, state: .queued, reverses: reverses)
    }

    /// What is left under each limit at `now`.
    func remaining(kind: TransactionKind, account: IBAN, online: Bool, at now: Date) throws -> RemainingLimits {
        try limits.remaining(kind: kind, context: try limitContext(kind: kind, account: account, isOnline: online, now: now))
    }

    /// What the limits are checked against, read inside the caller's transaction.
    private func limitContext(kind: TransactionKind, account: IBAN, isOnline: Bool, now: Date) throws -> LimitContext {
        let currency = limits.currency
        let (today, queued, oldest) = try database.queryFirst("""
            SELECT
                (SELECT amount_minor FROM outbox_totals WHERE bucket = ?1 AND currency = ?2) AS today_minor,
                (SELECT amount_minor FROM outbox_totals WHERE bucket = 'pending' AND currency = ?2) AS queued_minor,
                (SELECT created_at_ms FROM outbox WHERE id = min(
                    coalesce((SELECT min(id) FROM outbox WHERE state = ?3), 9223372036854775807),
                    coalesce((SELECT min(id) FROM outbox WHERE state = ?4), 9223372036854775807))) AS oldest_at_ms
            """, [.text(localDay(now)), .text(currency.code)] + .pending) { (row: Statement) throws(SQLiteError) in
                (try row.optionalInt64("today_minor") ?? 0, try row.optionalInt64("queued_minor") ?? 0, try row.optionalInt64("oldest_at_ms"))
            } ?? (0, 0, nil)
        var withdrawable: Money?
        if kind.isDebit, let known = try accounts.available(account) {
            let debits = try database.queryInt64("""
                SELECT coalesce(sum(amount_minor), 0) FROM outbox
                WHERE account_iban = ? AND state IN (?, ?) AND kind IN ('withdrawal', 'transfer') AND currency = ?
                """, [.text(account.electronic)] + .pending + [.text(known.currency.code)]) ?? 0
            withdrawable = try known.subtracting(Money(minorUnits: debits, currency: known.currency))
        }
        return LimitContext(
            isOnline: isOnline,
            todayTotal: Money(minorUnits: today, currency: currency),
            queuedTotal: Money(minorUnits: queued, currency: currency),
            oldestQueuedAge: oldest.map { now.timeIntervalSince(Date(millisecondsSince1970: $0)) },
            withdrawable: withdrawable)
    }

    /// The terminal's calendar day of `date` on its wall clock
    /// (``LocalTime``, in the store's zone), "YYYY-MM-DD": the daily
    /// limit's bucket.
    ///
    /// The day named last is kept with its minute, so the zone is asked at
    /// most once a minute rather than twice an enqueue (perf: for the system
    /// zone, `localtime_r` looks at /etc/localtime again, about 5 us each
    /// time). A minute of UTC never spans two days: midnight and every
    /// change of offset fall on a whole minute wherever offsets are whole
    /// minutes, as tzdata's have been everywhere since 1972.
    func localDay(_ date: Date) -> String {
        let minute = Int64((date.timeIntervalSince1970 / 60).rounded(.down))
        if let day = namedDay, day.minute == minute { return day.name }
        let local = LocalTime(date, in: zone)
        let name = "\(local.year.zeroPadded(4))-\(local.month.zeroPadded(2))-\(local.day.zeroPadded(2))"
        namedDay = (minute, name)
        return name
    }

    // MARK: Reading rows

    /// Every row still to settle and the newest `recent` rows, newest first
    /// (``OutboxPort/entries()``); each part is read through an index, so the
    /// cost follows what is open, not the years behind it.
    func entries(recent: Int) throws -> [OutboxEntry] {
        try database.query("""
            SELECT \(OutboxColumns.list) FROM outbox WHERE id IN (
                SELECT id FROM outbox WHERE state = ?1 UNION ALL SELECT id FROM outbox WHERE state = ?2
                UNION ALL SELECT id FROM outbox WHERE state = ?3
                UNION ALL SELECT id FROM \(Self.rejectionsToAcknowledge)
                UNION ALL SELECT id FROM (SELECT id FROM outbox ORDER BY id DESC LIMIT ?4))
            ORDER BY id DESC
            """, .pending + [.state(.needsReview), .integer(Int64(recent))], row: OutboxColumns.entry)
    }

    /// One row by key, or nil.
    func entry(for key: IdempotencyKey) throws -> OutboxEntry? {
        try database.queryFirst("SELECT \(OutboxColumns.list) FROM outbox WHERE idempotency_key = ?", [.text(key.rawValue)], row: OutboxColumns.entry)
    }

    /// Whether a row has key `key`.
    func contains(_ key: IdempotencyKey) throws -> Bool {
        try database.queryInt64("SELECT id FROM outbox WHERE idempotency_key = ?", [.text(key.rawValue)]) != nil
    }

    /// The exact bytes that every attempt of this row sends to the host.
    func frozenPayload(for key: IdempotencyKey) throws -> [UInt8]? {
        try database.queryFirst("SELECT payload FROM outbox WHERE idempotency_key = ?", [.text(key.rawValue)]) { (row: Statement) throws(SQLiteError) in try row.blob("payload") }
    }

    func pendingDebits(for account: IBAN) throws -> [OutboxEntry] {
        try database.query("""
            SELECT \(OutboxColumns.list) FROM outbox
            WHERE account_iban = ? AND state IN (?, ?) AND kind IN ('withdrawal', 'transfer') ORDER BY id
            """, [.text(account.electronic)] + .pending, row: OutboxColumns.entry)
    }

    func pendingEntries(for account: IBAN) throws -> [OutboxEntry] {
        try database.query("""
            SELECT \(OutboxColumns.list) FROM outbox
            WHERE state IN (?, ?) AND account_iban = ? ORDER BY id DESC
            """, .pending + [.text(account.electronic)], row: OutboxColumns.entry)
    }

    /// Rows a person has to look at, oldest first, with the reason.
    func needsReviewEntries() throws -> [OutboxEntry] {
        try database.query("SELECT \(OutboxColumns.list) FROM outbox WHERE state = ? ORDER BY id", [.state(.needsReview)], row: OutboxColumns.entry)
    }

    /// The rejections no operator has acknowledged: what follows `FROM` in a
    /// query of them. Read through the state index from the newest back, and
    /// only as many as schema 8 counts with the totals, so none are read when
    /// none are open, not every rejection retention keeps (an index of their
    /// own made every enqueue about 0.1 ms slower, teller-bench enqueue).
    static let rejectionsToAcknowledge = """
        (SELECT * FROM outbox WHERE state = 'rejected' AND acknowledged_at_ms IS NULL ORDER BY id DESC
         LIMIT (SELECT coalesce(max(amount_minor), 0) FROM outbox_totals WHERE bucket = 'unacknowledged:rejected' AND currency = ''))
        """

    /// The rejected and under-review rows no operator has acknowledged, per
    /// state, as schema 8's triggers keep them with the totals.
    func keptUnacknowledged(_ state: OutboxState.Kind) throws -> Int {
        Int(try database.queryInt64("SELECT amount_minor FROM outbox_totals WHERE bucket = ? AND currency = ''",
                                    [.text("unacknowledged:" + state.rawValue)]) ?? 0)
    }

    func summary() throws -> QueueSummary {
        var counts = Dictionary(uniqueKeysWithValues: OutboxState.Kind.allCases.map { ($0, 0) })
        // Kept by schema 7's triggers with each row's commit: no pass over the rows retention keeps.
        for (state, count) in try database.query("SELECT \(Self.keptState) AS state, amount_minor AS rows FROM \(Self.keptCounts) AND amount_minor > 0", row: {
            (row: Statement) throws(SQLiteError) -> (OutboxState.Kind, Int) in
            let count = Int(try row.int64("rows"))
            let subject = "\(database.path): \(count == 1 ? "1 outbox row is" : "\(count) outbox rows are")"
            return (try OutboxColumns.state(try row.text("state"), of: subject, sql: row.sql), count)
        }) {
            counts[state] = count
        }
        var pending: [Currency: Money] = [:]
        for (code, total) in try database.query("SELECT currency, sum(amount_minor) AS total_minor FROM outbox WHERE state IN (?, ?) GROUP BY currency",
                                                .pending, row: { (row: Statement) throws(SQLiteError) in (try row.text("currency"), try row.int64("total_minor")) }) {
            guard let currency = Currency(code: code) else { throw TellerError.storage(detail: "\(database.path): outbox holds unknown currency '\(code)'") }
            pending[currency] = Money(minorUnits: total, currency: currency)
        }
        let oldest = try database.queryInt64("SELECT min(created_at_ms) FROM outbox WHERE state IN (?, ?)", .pending)
        return QueueSummary(countsByState: counts, pendingByCurrency: pending, oldestQueuedAt: oldest.map(Date.init(millisecondsSince1970:)),
                            unacknowledgedRejections: try keptUnacknowledged(.rejected), unacknowledgedReviews: try keptUnacknowledged(.needsReview))
    }

    /// The rows per state kept with the running totals (schema 7): what
    /// follows `FROM`, ending in a condition, and the state each names.
    static let keptCounts = "outbox_totals WHERE bucket >= 'rows:' AND bucket < 'rows;' AND currency = ''"
    static let keptState = "substr(bucket, 6)"

    /// Where the rows per state, and the rejections and reviews no one
    /// acknowledged, kept with the totals differ from the rows,
    /// one line each; empty when they agree. Reads the whole outbox: for
    /// `teller check --full`, never for status.
    func countDifferences() throws -> [String] {
        try database.query("""
            WITH kept AS (SELECT \(Self.keptState) AS state, amount_minor AS rows FROM \(Self.keptCounts)),
                 held AS (SELECT state, count(*) AS rows FROM outbox GROUP BY state)
            SELECT kind.state AS state, coalesce(kept.rows, 0) AS kept, coalesce(held.rows, 0) AS held
            FROM (SELECT state FROM kept UNION SELECT state FROM held) AS kind
            LEFT JOIN kept ON kept.state = kind.state
            LEFT JOIN held ON held.state = kind.state
            WHERE coalesce(kept.rows, -1) != coalesce(held.rows, 0)
            """) { (row: Statement) throws(SQLiteError) in
            "the totals keep \(try row.int64("kept")) '\(try row.text("state"))' outbox rows, the outbox holds \(try row.int64("held"))"
        } + database.query("""
            WITH kept AS (SELECT substr(bucket, 16) AS state, amount_minor AS rows FROM outbox_totals
                          WHERE bucket IN ('unacknowledged:rejected', 'unacknowledged:needsReview') AND currency = ''),
                 held AS (SELECT state, count(*) AS rows FROM outbox
                          WHERE state IN ('rejected', 'needsReview') AND acknowledged_at_ms IS NULL GROUP BY state)
            SELECT kind.state AS state, coalesce(kept.rows, 0) AS kept, coalesce(held.rows, 0) AS held
            FROM (SELECT state FROM kept UNION SELECT state FROM held) AS kind
            LEFT JOIN kept ON kept.state = kind.state
            LEFT JOIN held ON held.state = kind.state
            WHERE coalesce(kept.rows, 0) != coalesce(held.rows, 0)
            """) { (row: Statement) throws(SQLiteError) in
            "the totals keep \(try row.int64("kept")) '\(try row.text("state"))' outbox rows no one acknowledged, the outbox holds \(try row.int64("held"))"
        }
    }

    /// The states of rows the bank has not answered for good: every state
    /// but confirmed, rejected and voided (never sent). A state added later
    /// is carried by a rescue until it is named here.
    static let unacknowledgedStates = OutboxState.Kind.allCases.filter { ![.confirmed, .rejected, .voided].contains($0) }

    /// Every row in ``unacknowledgedStates``, in queue order, with its frozen
    /// body: what a rescue file carries for the bank.
    func unacknowledged() throws -> [RescueDocument.Payment] {
        let states = Self.unacknowledgedStates
        let marks = Array(repeating: "?", count: states.count).joined(separator: ", ")
        return try database.query("""
            SELECT idempotency_key, state, payload, created_at_ms, attempts, first_sent_at_ms, last_error FROM outbox
            WHERE state IN (\(marks)) ORDER BY id
            """, states.map { .state($0) }) { (row: Statement) throws(SQLiteError) in
            RescueDocument.Payment(
                idempotencyKey: try row.text("idempotency_key"), state: try row.text("state"),
                body: String(decoding: try row.blob("payload"), as: UTF8.self),
                createdAt: WireTransaction.timestamp(Date(millisecondsSince1970: try row.int64("created_at_ms"))),
                attempts: Int(try row.int64("attempts")),
                firstSentAt: try row.optionalInt64("first_sent_at_ms").map { WireTransaction.timestamp(Date(millisecondsSince1970: $0)) },
                lastError: try row.optionalText("last_error"))
        }
    }

    /// When the bank last confirmed a row, or nil when it never has.
    func lastConfirmedAt() throws -> Date? {
        // A confirmed row is never acknowledged, so its last update is the bank's answer. The engine
        // sends the oldest first, so the newest answers are among the newest confirmed rows: reading
        // those, not every confirmed row there ever was, keeps this the same after years of history.
        try database.queryInt64("""
            SELECT max(updated_at_ms) FROM (SELECT updated_at_ms FROM outbox WHERE state = ? ORDER BY id DESC LIMIT \(Self.newestRows))
            """, [.state(.confirmed)]).map(Date.init(millisecondsSince1970:))
    }

    /// How many of the newest rows stand for all of them where only the
    /// newest times matter: the clock's floor and the last answer.
    static let newestRows = 64

    /// The newest time a row was made at: a time known to have passed (the trusted clock's floor).
    static func newestCreatedAt(in database: Database) throws -> Date? {
        // Rows are stamped by the trusted clock, whose floor is the last row's time, so the newest rows
        // hold the greatest times (within the clock's slack).
        try database.queryInt64("""
            SELECT max(created_at_ms) FROM (SELECT created_at_ms FROM outbox ORDER BY id DESC LIMIT \(newestRows))
            """).map(Date.init(millisecondsSince1970:))
    }

    // MARK: Acknowledging, voiding, reversing

    func acknowledge(_ key: IdempotencyKey, by operatorID: OperatorID, at now: Date) throws {
        try database.run("""
            UPDATE outbox SET acknowledged_at_ms = ?, acknowledged_by = ?, updated_at_ms = ?
            WHERE idempotency_key = ? AND state IN (?, ?) AND acknowledged_at_ms IS NULL
            """, [.integer(now.millisecondsSince1970), .text(operatorID.rawValue), .integer(now.millisecondsSince1970), .text(key.rawValue),
                  .state(.rejected), .state(.needsReview)])
        guard database.changes == 1 else { throw TellerError.noSuchEntry(key) }
    }

    /// Voids the queued row `key` that never left the terminal, inside the
    /// caller's transaction; refuses one `isClaimed` says the sync engine
    /// has taken to send, a `sending` one and one that left before.
    /// - Returns: the row as it was before the void.
    func void(_ key: IdempotencyKey, reason: VoidReason, at now: Date, isClaimed: (Int64) -> Bool) throws -> OutboxEntry {
        guard let (entry, firstSent) = try database.queryFirst(
            "SELECT \(OutboxColumns.list) FROM outbox WHERE idempotency_key = ?", [.text(key.rawValue)],
            row: { (row: Statement) throws(SQLiteError) -> (OutboxEntry, Int64?) in (try OutboxColumns.entry(row), try row.optionalInt64("first_sent_at_ms")) })
        else { throw TellerError.noSuchEntry(key) }
        switch entry.state {
        case .queued:
            if isClaimed(entry.id) { throw TellerError.voidRefused(.sending) }
            if firstSent != nil { throw TellerError.voidRefused(.sentBefore) }
        case .sending: throw TellerError.voidRefused(.sending)
        case .confirmed(let reference): throw TellerError.voidRefused(.alreadySent(reference: reference))
        case .rejected: throw TellerError.voidRefused(.rejected)
        case .needsReview: throw TellerError.voidRefused(.needsReview)
        case .voided: throw TellerError.voidRefused(.alreadyVoided)
        }
        try database.run("""
            UPDATE outbox SET state = ?, reason = ?, updated_at_ms = ?
            WHERE id = ? AND state = ? AND first_sent_at_ms IS NULL
            """, [.state(.voided), .text(reason.rawValue), .integer(now.millisecondsSince1970), .integer(entry.id), .state(.queued)])
        guard database.changes == 1 else {
            throw TellerError.storage(detail: "\(database.path): outbox row \(entry.id) changed while it was being voided")
        }
        return entry
    }

    /// The posted payment `key`, which no live reversal undoes yet; read
    /// inside the caller's (the reversal's) transaction.
    func reversible(_ key: IdempotencyKey) throws -> OutboxEntry {
        guard let found = try entry(for: key) else { throw TellerError.noSuchEntry(key) }
        guard case .confirmed = found.state else { throw TellerError.reversalRefused(.notPosted(found.state.kind)) }
        guard found.reverses == nil else { throw TellerError.reversalRefused(.isReversal) }
        if let other = try database.queryText("""
            SELECT idempotency_key FROM outbox WHERE reverses = ? AND state != ? AND state != ? ORDER BY id LIMIT 1
            """, [.text(key.rawValue), .state(.voided), .state(.rejected)]).flatMap(IdempotencyKey.init(rawValue:)) {
            throw TellerError.reversalRefused(.alreadyReversed(by: other))
        }
        return found
    }
}

/// The outbox columns every row query selects, and how they become an entry.
enum OutboxColumns {
    static let list = """
        id, idempotency_key, kind, account_iban, counterparty_iban, amount_minor, currency, operator_id,
        created_at_ms, state, attempts, next_attempt_at_ms, last_error, host_reference, reason, acknowledged_at_ms,
        last_error_class, waited_ms, reverses, first_sent_at_ms, approved_by
        """

    static func entry(_ row: Statement) throws(SQLiteError) -> OutboxEntry {
        let id = try row.int64("id")
        func corrupt(_ what: String) -> SQLiteError {
            SQLiteError(code: .corrupt, message: "outbox row \(id) has \(what)", sql: row.sql)
        }
        guard let key = IdempotencyKey(rawValue: try row.text("idempotency_key")) else { throw corrupt("a malformed idempotency key") }
        guard let kind = TransactionKind(rawValue: try row.text("kind")) else { throw corrupt("an unknown kind") }
        guard let currency = Currency(code: try row.text("currency")) else { throw corrupt("an unknown currency") }
        guard let operatorID = OperatorID(try row.text("operator_id")) else { throw corrupt("a malformed operator id") }
        var approvedBy: OperatorID?
        if let text = try row.optionalText("approved_by") {
            guard let id = OperatorID(text) else { throw corrupt("a malformed approving supervisor") }
            approvedBy = id
        }
        let (account, counterparty, amount) = (try row.text("account_iban"), try row.optionalText("counterparty_iban"), try row.int64("amount_minor"))
        let request: TransactionRequest
        do {
            request = try TransactionRequest(
                kind: kind, account: try IBAN(account), counterparty: try counterparty.map { try IBAN($0) },
                amount: Money(minorUnits: amount, currency: currency), operatorID: operatorID, approvedBy: approvedBy)
        } catch {
            throw corrupt("invalid transaction fields (\(error))")
        }
        let state: OutboxState
        switch try Self.state(try row.text("state"), of: "outbox row \(id) is", sql: row.sql) {
        case .queued: state = .queued
        case .sending: state = .sending
        case .confirmed: state = .confirmed(reference: try row.optionalText("host_reference") ?? "")
        case .rejected: state = .rejected(reason: try row.optionalText("reason") ?? "", acknowledged: !(try row.isNull("acknowledged_at_ms")))
        case .needsReview: state = .needsReview(reason: try row.optionalText("reason") ?? "", acknowledged: !(try row.isNull("acknowledged_at_ms")))
        case .voided:
            guard let reason = VoidReason(rawValue: try row.optionalText("reason") ?? "") else { throw corrupt("an unknown void reason") }
            state = .voided(reason: reason)
        }
        var reverses: IdempotencyKey?
        if let text = try row.optionalText("reverses") {
            guard let key = IdempotencyKey(rawValue: text) else { throw corrupt("a malformed reversed key") }
            reverses = key
        }
        return OutboxEntry(
            id: id, key: key, request: request, createdAt: Date(millisecondsSince1970: try row.int64("created_at_ms")),
            state: state, attempts: Int(try row.int64("attempts")),
            nextAttemptAt: try row.optionalInt64("next_attempt_at_ms").map(Date.init(millisecondsSince1970:)), lastError: try row.optionalText("last_error"),
            lastProblem: try row.optionalText("last_error_class").flatMap(SyncProblem.Kind.init(rawValue:)),
            waited: TimeInterval(try row.int64("waited_ms")) / 1000, reverses: reverses)
    }

    /// The state a `state` column holds. A word this Teller does not know
    /// (a newer Teller's state, a damaged file) makes the database corrupt
    /// and says which word: a row is never skipped, nor counted under a guess.
    /// - Parameter subject: whose state it is, for the message ("outbox row 7 is").
    static func state(_ stored: String, of subject: String, sql: String?) throws(SQLiteError) -> OutboxState.Kind {
        guard let kind = OutboxState.Kind(rawValue: stored) else {
            let known = OutboxState.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw SQLiteError(code: .corrupt, message: "\(subject) in state '\(stored)', which this Teller does not know (it knows \(known))", sql: sql)
        }
        return kind
    }
}

extension SQLValue {
    /// A state bound as the word the `state` column stores, so queries never spell it.
    static func state(_ kind: OutboxState.Kind) -> SQLValue { .text(kind.rawValue) }
}

extension [SQLValue] {
    /// Queued and sending, bound for `state IN (?, ?)`: the rows whose money has not reached the host.
    static var pending: [SQLValue] { [.state(.queued), .state(.sending)] }
}

