import FoundationEssentials
import TellerCore
import SQLite

/// The journal's port (``JournalStore`` keeps it): every append is a
/// transaction of its own here; a change that journals itself appends
/// with ``appendJournal(_:at:)`` inside its own transaction.
extension TellerStore: JournalPort {
    public func append(_ event: JournalEvent) throws(TellerError) -> JournalEntry {
        try translating {
            try database.inTransaction(.immediate) { try appendJournal(event, at: clock.now()) }
        }
    }

    public func journalEntries(from first: Int64, limit: Int) throws(TellerError) -> [JournalEntry] {
        try translating { try journal.entries(from: first, limit: limit) }
    }

    /// Every entry written on the terminal's calendar day `day`
    /// ("YYYY-MM-DD", on the store's wall clock, as the daily limit counts
    /// days), in sequence order. Reads that day's entries, not the years
    /// before it (``JournalStore/sequences(onDay:day:)``).
    public func journalEntries(onLocalDay day: String) throws(TellerError) -> [JournalEntry] {
        try translating { try journal.entries(onDay: day, day: { localDay($0) }) }
    }

    /// Walks the whole chain from the first entry and returns the first
    /// broken link, or how many entries are intact. Only reads: a store
    /// opened ``init(readingOnly:limits:)`` answers it too.
    public func verifyJournal() throws(TellerError) -> JournalVerdict {
        try translating { try journal.verify() }
    }

    /// Checks the links of the entries of the terminal's calendar day `day`
    /// only, in time that does not grow with history (`teller journal verify --day`).
    public func verifyJournal(onLocalDay day: String) throws(TellerError) -> JournalDayVerdict {
        try translating { try journal.verify(onDay: day, day: { localDay($0) }) }
    }

    /// Appends `event` at `time` inside the caller's transaction, so the
    /// entry commits (or rolls back) with the change it records.
    @discardableResult
    func appendJournal(_ event: JournalEvent, at time: Date) throws -> JournalEntry {
        try journal.append(event, at: time)
    }
}
