import FoundationEssentials
import TellerCore
import SQLite

/// The electronic journal (`journal`, docs/architecture.md, "Journal"):
/// appended in the transaction of the change each entry records, chained
/// by hashes (``JournalChain``), never changed or removed (the schema's
/// triggers refuse it).
///
/// Not thread-safe: a part of ``TellerStore``, used on its connection only.
final class JournalStore {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    func entries(from first: Int64, limit: Int) throws -> [JournalEntry] {
        try database.query("SELECT \(JournalColumns.list) FROM journal WHERE sequence >= ? ORDER BY sequence LIMIT ?",
                           [.integer(first), .integer(Int64(limit))], row: JournalColumns.entry)
    }

    /// Every entry after `sequence`, in order, with the fields its hash
    /// covers as stored (not decoded into kinds: a rescue carries an entry
    /// this Teller does not know as it is).
    func lines(after sequence: Int64) throws -> [RescueDocument.JournalLine] {
        var lines: [RescueDocument.JournalLine] = []
        try database.forEach("SELECT \(JournalColumns.list) FROM journal WHERE sequence > ? ORDER BY sequence", [.integer(sequence)]) {
            (row: Statement) throws(SQLiteError) -> Bool in
            lines.append(RescueDocument.JournalLine(
                sequence: try row.int64("sequence"), timeMs: try row.int64("time_ms"), kind: try row.text("kind"),
                operatorID: try row.text("operator_id"), supervisorID: try row.optionalText("supervisor_id"), payload: try row.text("payload"),
                prevHash: try row.text("prev_hash"), hash: try row.text("hash")))
            return true
        }
        return lines
    }

    /// Every entry whose time `day(of:)` names `day`, in sequence order.
    /// Reads the day's entries and a few dozen more (``sequences(onDay:day:)``).
    func entries(onDay day: String, day dayOf: (Date) -> String) throws -> [JournalEntry] {
        guard let range = try sequences(onDay: day, day: dayOf) else { return [] }
        var entries: [JournalEntry] = []
        try database.forEach("SELECT \(JournalColumns.list) FROM journal WHERE sequence >= ? AND sequence <= ? ORDER BY sequence",
                             [.integer(range.lowerBound), .integer(range.upperBound)]) { (row: Statement) throws(SQLiteError) -> Bool in
            if dayOf(Date(millisecondsSince1970: try row.int64("time_ms"))) == day { entries.append(try JournalColumns.entry(row)) }
            return true
        }
        return entries
    }

    /// The sequence numbers from the first to the last entry of `day`, or
    /// nil when no entry has it. Entries are stamped by the trusted clock,
    /// whose floor is the last entry's time, so their days follow their
    /// numbers (within the clock's two minutes of slack): a binary search
    /// over the numbers finds the day's first entry in about 20 reads,
    /// whatever the years behind it, and the walk stops at the first entry
    /// of a later day that is more than the slack later.
    func sequences(onDay day: String, day dayOf: (Date) -> String) throws -> ClosedRange<Int64>? {
        guard let (oldest, newest) = try database.queryFirst("SELECT min(sequence) AS oldest, max(sequence) AS newest FROM journal", row: {
            (row: Statement) throws(SQLiteError) -> (Int64, Int64)? in
            guard let oldest = try row.optionalInt64("oldest"), let newest = try row.optionalInt64("newest") else { return nil }
            return (oldest, newest)
        }) ?? nil else { return nil }
        func time(_ sequence: Int64) throws -> Int64? {
            try database.queryInt64("SELECT time_ms FROM journal WHERE sequence >= ? ORDER BY sequence LIMIT 1", [.integer(sequence)])
        }
        let slack = Int64(TrustedClock.slack * 1000)
        // The first entry whose day, or whose day two minutes later, is `day` or after it.
        var low = oldest, high = newest + 1
        while low < high {
            let middle = low + (high - low) / 2
            guard let at = try time(middle) else { high = middle; continue }
            if dayOf(Date(millisecondsSince1970: at + slack)) < day { low = middle + 1 } else { high = middle }
        }
        var first: Int64?
        var last: Int64?
        try database.forEach("SELECT sequence, time_ms FROM journal WHERE sequence >= ? ORDER BY sequence", [.integer(low)]) { (row: Statement) throws(SQLiteError) -> Bool in
            let at = try row.int64("time_ms")
            let named = dayOf(Date(millisecondsSince1970: at))
            if named == day {
                let sequence = try row.int64("sequence")
                first = first ?? sequence
                last = sequence
            }
            return dayOf(Date(millisecondsSince1970: at - slack)) <= day
        }
        guard let first, let last else { return nil }
        return first...last
    }

    /// Checks the links of one day's entries: each entry's bytes give its
    /// hash, and each names the hash of the entry before it, from the entry
    /// before the day's first (or the genesis, or the checkpoint that
    /// carries the chain over what retention removed) to the day's last.
    /// What came before that day is not walked: ``verify()`` walks it all.
    func verify(onDay day: String, day dayOf: (Date) -> String) throws -> JournalDayVerdict {
        guard let range = try sequences(onDay: day, day: dayOf) else { return .noEntries }
        let before = range.lowerBound - 1
        let anchor: String
        if before == 0 {
            anchor = JournalChain.genesis
        } else if let hash = try database.queryText("SELECT hash FROM journal WHERE sequence = ?", [.integer(before)]) {
            anchor = hash
        } else if let carried = try carrier(of: before) {
            anchor = carried.hash
        } else {
            return .broken(.uncarried(missing: 1...before))
        }
        let (found, next, _) = try walk(from: range.lowerBound, through: range.upperBound, previous: anchor)
        if let found { return .broken(found) }
        return .intact(entries: Int(next - range.lowerBound), sequences: range)
    }

    /// Walks the whole chain and returns the first broken link, or how many
    /// entries are intact and where the walk began: at entry 1 from the
    /// genesis hash, or, once retention removed the oldest entries, at the
    /// oldest entry kept, from the hash the checkpoint that removed its
    /// predecessor names (``JournalCarry``). Only reads: a store opened
    /// ``TellerStore/init(readingOnly:limits:)`` answers it too.
    func verify() throws -> JournalVerdict {
        var expected: Int64 = 1
        var previous = JournalChain.genesis
        var carry: JournalCarry?
        if let oldest = try database.queryInt64("SELECT min(sequence) FROM journal"), oldest > 1 {
            guard let found = try carrier(of: oldest - 1) else { return .broken(.uncarried(missing: 1...(oldest - 1))) }
            (expected, previous, carry) = (oldest, found.hash, found.carry)
        }
        var found: JournalBreak?
        (found, expected, previous) = try walk(from: expected, through: nil, previous: previous)
        // Removed newest entries leave no gap behind them; AUTOINCREMENT's high-water mark shows them.
        if found == nil, let highest = try database.queryInt64("SELECT seq FROM sqlite_sequence WHERE name = 'journal'"), highest >= expected {
            found = .gap(missing: expected...highest, next: nil)
        }
        if let found { return .broken(found) }
        return .intact(entries: Int(expected - (carry?.first ?? 1)), from: carry)
    }

    /// Walks entries from `first` (through `last`, or to the newest) whose
    /// chain begins at `previous`: the first broken link, else nil, and
    /// the number and hash the next entry must have.
    func walk(from first: Int64, through last: Int64?, previous start: String) throws -> (JournalBreak?, next: Int64, previous: String) {
        var expected = first
        var previous = start
        var found: JournalBreak?
        try database.forEach("SELECT \(JournalColumns.list) FROM journal WHERE sequence >= ? AND sequence <= ? ORDER BY sequence",
                             [.integer(first), .integer(last ?? Int64.max)]) { (row: Statement) throws(SQLiteError) -> Bool in
            let sequence = try row.int64("sequence")
            if sequence != expected {
                found = .gap(missing: expected...max(expected, sequence - 1), next: sequence)
                return false
            }
            if try row.text("prev_hash") != previous {
                found = .previousHashMismatch(sequence: sequence)
                return false
            }
            let canonical = JournalChain.canonicalBytes(
                sequence: sequence, timeMilliseconds: try row.int64("time_ms"), kind: try row.text("kind"), operatorID: try row.text("operator_id"),
                supervisorID: try row.optionalText("supervisor_id"), payload: try row.text("payload"))
            let stored = try row.text("hash")
            guard JournalChain.hash(previous: previous, canonical: canonical) == stored else {
                found = .hashMismatch(sequence: sequence)
                return false
            }
            previous = stored
            expected += 1
            return true
        }
        return (found, expected, previous)
    }

    /// The checkpoint that removed entry `through` as the newest of its
    /// batch, with the hash it names for it; nil when none does. Its own
    /// bytes are checked when the walk reaches it, so a changed name shows
    /// as that checkpoint's hash mismatch.
    func carrier(of through: Int64) throws -> (hash: String, carry: JournalCarry)? {
        try database.queryFirst("""
            SELECT sequence, time_ms, CASE WHEN json_valid(payload) THEN json_extract(payload, '$.through_hash') END AS through_hash
            FROM journal WHERE kind = 'checkpoint' AND sequence > ?1
              AND CASE WHEN json_valid(payload) THEN json_extract(payload, '$.through') END = ?1
            ORDER BY sequence LIMIT 1
            """, [.integer(through)]) { (row: Statement) throws(SQLiteError) in
            (try row.optionalText("through_hash") ?? "",
             JournalCarry(checkpoint: try row.int64("sequence"), time: Date(millisecondsSince1970: try row.int64("time_ms")), pruned: through))
        }
    }

    /// Appends `event` at `time` inside the caller's transaction, so the
    /// entry commits (or rolls back) with the change it records.
    @discardableResult
    func append(_ event: JournalEvent, at time: Date) throws -> JournalEntry {
        let (last, previous) = try database.queryFirst("SELECT sequence, hash FROM journal ORDER BY sequence DESC LIMIT 1") { (row: Statement) throws(SQLiteError) in
            (try row.int64("sequence"), try row.text("hash"))
        } ?? (0, JournalChain.genesis)
        let sequence = last + 1
        let milliseconds = time.millisecondsSince1970
        let payload = event.payload
        let canonical = JournalChain.canonicalBytes(sequence: sequence, timeMilliseconds: milliseconds, kind: event.kind.rawValue,
                                                    operatorID: event.operatorID.rawValue, supervisorID: event.supervisorID?.rawValue,
                                                    payload: payload)
        guard let hash = JournalChain.hash(previous: previous, canonical: canonical) else {
            throw SQLiteError(code: .corrupt, message: "journal entry \(last) has a malformed hash '\(previous)'", path: database.path)
        }
        try database.run("""
            INSERT INTO journal (sequence, time_ms, kind, operator_id, supervisor_id, payload, prev_hash, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(sequence), .integer(milliseconds), .text(event.kind.rawValue), .text(event.operatorID.rawValue),
                  event.supervisorID.map { .text($0.rawValue) } ?? .null, .text(payload), .text(previous), .text(hash)])
        return JournalEntry(sequence: sequence, time: Date(millisecondsSince1970: milliseconds), kind: event.kind, operatorID: event.operatorID,
                            supervisorID: event.supervisorID, payload: payload, previousHash: previous, hash: hash)
    }
}

/// The journal columns every entry query selects, and how they become an entry.
enum JournalColumns {
    static let list = "sequence, time_ms, kind, operator_id, supervisor_id, payload, prev_hash, hash"

    static func entry(_ row: Statement) throws(SQLiteError) -> JournalEntry {
        let sequence = try row.int64("sequence")
        func corrupt(_ what: String) -> SQLiteError {
            SQLiteError(code: .corrupt, message: "journal entry \(sequence) has \(what)", sql: row.sql)
        }
        let storedKind = try row.text("kind")
        guard let kind = JournalKind(rawValue: storedKind) else { throw corrupt("the unknown kind '\(storedKind)'") }
        guard let operatorID = OperatorID(try row.text("operator_id")) else { throw corrupt("a malformed operator id") }
        var supervisorID: OperatorID?
        if let text = try row.optionalText("supervisor_id") {
            guard let id = OperatorID(text) else { throw corrupt("a malformed supervisor id") }
            supervisorID = id
        }
        return JournalEntry(sequence: sequence, time: Date(millisecondsSince1970: try row.int64("time_ms")), kind: kind, operatorID: operatorID,
                            supervisorID: supervisorID, payload: try row.text("payload"), previousHash: try row.text("prev_hash"), hash: try row.text("hash"))
    }
}
