import FoundationEssentials
import TellerCore

/// The till (docs/architecture.md, "Till"): one cash drawer session per
/// operator on this terminal. Opening and closing each commit, in one
/// transaction, the till's row, its journal entry and its event for the
/// bank (`till_events`, drained after the payments). Cash payments carry
/// the open till's id (`outbox.till_id`), so its position is read from the
/// outbox and cannot drift from it.
extension TellerStore: TillPort {
    public nonisolated var denominations: DenominationTable { tillSettings.denominations }
    public nonisolated var tolerance: Money { tillSettings.tolerance }

    public func openTill(of operatorID: OperatorID) throws(TellerError) -> TillSession? {
        try translating {
            guard let id = try openTillID(of: operatorID) else { return nil }
            return try tillSession(id)
        }
    }

    public func till(_ id: Int64) throws(TellerError) -> TillSession? {
        try translating { try tillSession(id) }
    }

    public func open(by operatorID: OperatorID, count: TillCount) throws(TellerError) -> TillSession {
        try checked(count)
        defer { for observer in tillEventObservers { observer() } }
        return try translating {
            try database.inTransaction(.immediate) {
                guard try openTillID(of: operatorID) == nil else { throw TellerError.till(.alreadyOpen) }
                let (now, verified) = stamp()
                try database.run("""
                    INSERT INTO tills (operator_id, currency, opened_at_ms, opening_count, opening_minor) VALUES (?, ?, ?, ?, ?)
                    """, [.text(operatorID.rawValue), .text(count.currency.code), .integer(now.millisecondsSince1970), .text(count.json),
                          .integer(count.total.minorUnits)])
                let till = TillSession(id: database.lastInsertRowID, operatorID: operatorID, openedAt: now, opening: count,
                                       cashIn: .zero(count.currency), cashOut: .zero(count.currency), cashPayments: 0)
                let key = try queueTillEvent(WireTillEvent(opened: till, at: now, clockUnverified: !verified), kind: "opened", till: till.id, at: now)
                try appendJournal(.tillOpened(till, event: key), at: now)
                return till
            }
        }
    }

    public func close(by operatorID: OperatorID, count: TillCount, approvedBy: OperatorID?) throws(TellerError) -> TillSession {
        try checked(count)
        if approvedBy == operatorID { throw .approval(.ownTransaction) }
        defer { for observer in tillEventObservers { observer() } }
        return try translating {
            try database.inTransaction(.immediate) {
                guard let id = try openTillID(of: operatorID), var till = try tillSession(id) else { throw TellerError.till(.notOpen) }
                let (now, verified) = stamp()
                let closing = TillSession.Closing(closedAt: now, counted: count, expected: till.position, approvedBy: approvedBy)
                let beyondTolerance = abs(closing.overShort.minorUnits) > tolerance.minorUnits
                if beyondTolerance, approvedBy == nil { throw TellerError.till(.needsApproval(overShort: closing.overShort, tolerance: tolerance)) }
                // An approval nothing needed is not recorded as one.
                till.closing = beyondTolerance ? closing : TillSession.Closing(closedAt: now, counted: count, expected: till.position, approvedBy: nil)
                try database.run("""
                    UPDATE tills SET closed_at_ms = ?, closing_count = ?, counted_minor = ?, expected_minor = ?, approved_by = ?
                    WHERE id = ? AND closed_at_ms IS NULL
                    """, [.integer(now.millisecondsSince1970), .text(count.json), .integer(count.total.minorUnits),
                          .integer(closing.expected.minorUnits), till.closing?.approvedBy.map { .text($0.rawValue) } ?? .null, .integer(id)])
                let key = try queueTillEvent(WireTillEvent(closed: till, at: now, clockUnverified: !verified), kind: "closed", till: id, at: now)
                if let supervisor = till.closing?.approvedBy { try appendJournal(.approval(ofClosing: till, by: supervisor), at: now) }
                try appendJournal(.tillClosed(till, event: key), at: now)
                return till
            }
        }
    }

    /// The id of the operator's open till, read inside the caller's transaction.
    func openTillID(of operatorID: OperatorID) throws -> Int64? {
        try database.queryInt64("SELECT id FROM tills WHERE operator_id = ? AND closed_at_ms IS NULL", [.text(operatorID.rawValue)])
    }

    /// A till with its cash position, read inside the caller's transaction.
    private func tillSession(_ id: Int64) throws -> TillSession? {
        guard let row = try database.queryFirst("""
            SELECT operator_id, currency, opened_at_ms, opening_count, closed_at_ms, closing_count, expected_minor, approved_by FROM tills WHERE id = ?
            """, [.integer(id)], row: { (row: Statement) throws(SQLiteError) in
                (operatorID: try row.text("operator_id"), currency: try row.text("currency"), openedAt: try row.int64("opened_at_ms"),
                 opening: try row.text("opening_count"), closedAt: try row.optionalInt64("closed_at_ms"), closing: try row.optionalText("closing_count"),
                 expected: try row.optionalInt64("expected_minor"), approvedBy: try row.optionalText("approved_by"))
            }) else { return nil }
        func corrupt(_ what: String) -> SQLiteError { SQLiteError(code: .corrupt, message: "till \(id) has \(what)", path: path) }
        guard let operatorID = OperatorID(row.operatorID) else { throw corrupt("a malformed operator id") }
        guard let currency = Currency(code: row.currency) else { throw corrupt("the unknown currency '\(row.currency)'") }
        guard let opening = TillCount(json: row.opening, currency: currency) else { throw corrupt("an unreadable opening count") }
        let (cashIn, cashOut, payments) = try database.queryFirst("""
            SELECT coalesce(sum(CASE WHEN kind = 'deposit' THEN amount_minor END), 0) AS cash_in_minor,
                   coalesce(sum(CASE WHEN kind = 'withdrawal' THEN amount_minor END), 0) AS cash_out_minor, count(*) AS payments
            FROM outbox WHERE till_id = ? AND state != ? AND currency = ?
            """, [.integer(id), .state(.voided), .text(currency.code)]) { (row: Statement) throws(SQLiteError) in
                (try row.int64("cash_in_minor"), try row.int64("cash_out_minor"), Int(try row.int64("payments")))
            } ?? (0, 0, 0)
        var closing: TillSession.Closing?
        if let closedAt = row.closedAt {
            guard let text = row.closing, let counted = TillCount(json: text, currency: currency), let expected = row.expected else {
                throw corrupt("an unreadable closing count")
            }
            var approvedBy: OperatorID?
            if let text = row.approvedBy {
                guard let id = OperatorID(text) else { throw corrupt("a malformed approving supervisor") }
                approvedBy = id
            }
            closing = TillSession.Closing(closedAt: Date(millisecondsSince1970: closedAt), counted: counted,
                                          expected: Money(minorUnits: expected, currency: currency), approvedBy: approvedBy)
        }
        return TillSession(id: id, operatorID: operatorID, openedAt: Date(millisecondsSince1970: row.openedAt), opening: opening,
                           cashIn: Money(minorUnits: cashIn, currency: currency), cashOut: Money(minorUnits: cashOut, currency: currency),
                           cashPayments: payments, closing: closing)
    }

    /// Queues a till event for the bank under a fresh key, inside the caller's transaction.
    private func queueTillEvent(_ event: WireTillEvent, kind: String, till: Int64, at now: Date) throws -> IdempotencyKey {
        let key = IdempotencyKey.random()
        try database.run("""
            INSERT INTO till_events (idempotency_key, till_id, kind, payload, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(key.rawValue), .integer(till), .text(kind), .blob(try event.encoded()), .integer(now.millisecondsSince1970),
                  .integer(now.millisecondsSince1970)])
        return key
    }

    /// The time a row is stamped with, and whether the clock was above its trusted floor.
    func stamp() -> (Date, verified: Bool) {
        let stamp = clock.stamp()
        return (stamp.date, verified: stamp.isVerified)
    }

    /// A count in the till's currency and denominations.
    private func checked(_ count: TillCount) throws(TellerError) {
        do throws(TillRefusal) { try count.validate(in: tillSettings.denominations) } catch { throw .till(error) }
    }
}
