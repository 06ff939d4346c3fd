import FoundationEssentials
import TellerCore
import SQLite

/// The last snapshot of each account the bank answered for
/// (`account_cache`): the read path's first paint, and the last known
/// available balance an offline withdrawal is checked against.
///
/// Not thread-safe: a part of ``TellerStore``, used on its connection only.
final class AccountCache {
    private let database: Database
    private let clock: any WallClock

    init(database: Database, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Replaces the cached snapshot of one account.
    func save(_ snapshot: AccountSnapshot) throws {
        let recent = try JSONEncoder().encode(snapshot.recent.map(CachedActivity.init))
        try database.run("""
            INSERT INTO account_cache (iban, holder, currency, balance_minor, available_minor, as_of_ms, recent, fetched_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (iban) DO UPDATE SET holder = excluded.holder, currency = excluded.currency,
                balance_minor = excluded.balance_minor, available_minor = excluded.available_minor,
                as_of_ms = excluded.as_of_ms, recent = excluded.recent, fetched_at_ms = excluded.fetched_at_ms
            """, [
                .text(snapshot.iban.electronic), .text(snapshot.holder), .text(snapshot.currency.code),
                .integer(snapshot.balance.minorUnits), .integer(snapshot.available.minorUnits),
                .integer(snapshot.asOf.millisecondsSince1970), .blob(Array(recent)), .integer(clock.now().millisecondsSince1970),
            ])
    }

    /// The last stored snapshot of an account, or nil if this terminal never saw it.
    func snapshot(for iban: IBAN) throws -> AccountSnapshot? {
        try database.queryFirst("""
            SELECT holder, currency, balance_minor, available_minor, as_of_ms, recent FROM account_cache WHERE iban = ?
            """, [.text(iban.electronic)]) { (row: Statement) throws(SQLiteError) in
            (try row.text("holder"), try row.text("currency"), try row.int64("balance_minor"), try row.int64("available_minor"), try row.int64("as_of_ms"),
             try row.blob("recent"))
        }.map { holder, code, balance, available, asOf, recent in
            guard let currency = Currency(code: code) else { throw TellerError.storage(detail: "\(database.path): cached account \(iban) has unknown currency '\(code)'") }
            let activity = try JSONDecoder().decode([CachedActivity].self, from: Data(recent)).map { try $0.item(currency: currency) }
            return AccountSnapshot(
                iban: iban, holder: holder, balance: Money(minorUnits: balance, currency: currency),
                available: Money(minorUnits: available, currency: currency), asOf: Date(millisecondsSince1970: asOf), recent: activity)
        }
    }

    /// The account's last known available balance, or nil if never seen:
    /// what an offline withdrawal may take, less the pending debits.
    func available(_ account: IBAN) throws -> Money? {
        guard let (code, available) = try database.queryFirst("SELECT currency, available_minor FROM account_cache WHERE iban = ?", [.text(account.electronic)],
                                                               row: { (row: Statement) throws(SQLiteError) in (try row.text("currency"), try row.int64("available_minor")) })
        else { return nil }
        guard let currency = Currency(code: code) else { throw TellerError.storage(detail: "\(database.path): cached account holds unknown currency '\(code)'") }
        return Money(minorUnits: available, currency: currency)
    }
}

/// How one activity line is kept in `account_cache.recent`.
struct CachedActivity: Codable {
    let reference: String
    let kind: TransactionKind
    let amountMinor: Int64
    let bookedAtMs: Int64
    let description: String

    init(_ item: ActivityItem) {
        reference = item.reference
        kind = item.kind
        amountMinor = item.amount.minorUnits
        bookedAtMs = item.bookedAt.millisecondsSince1970
        description = item.description
    }

    func item(currency: Currency) throws -> ActivityItem {
        ActivityItem(reference: reference, kind: kind, amount: Money(minorUnits: amountMinor, currency: currency),
                     bookedAt: Date(millisecondsSince1970: bookedAtMs), description: description)
    }
}
