/// The electronic journal as the features use it: screens append what only
/// they know of (a till count, a supervisor's approval, a print) and read
/// it back (the end-of-day report). Payments, voids, reversals, sign-ins and
/// the bank's answers are journalled by the data layer itself, in the same
/// transaction as the change they record.
public protocol JournalPort: Sendable {
    /// Appends one entry in its own transaction; returning means it is on disk.
    func append(_ event: JournalEvent) async throws(TellerError) -> JournalEntry
    /// Up to `limit` entries from sequence number `first` on, in order.
    func journalEntries(from first: Int64, limit: Int) async throws(TellerError) -> [JournalEntry]
}
