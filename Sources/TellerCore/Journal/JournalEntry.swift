import FoundationEssentials

/// One entry of the electronic journal as stored: append-only, and chained
/// by hashes so that a changed or missing entry shows (`teller journal
/// verify`, docs/architecture.md "Journal").
public struct JournalEntry: Hashable, Sendable {
    /// 1 for the first entry, then one more for each; never reused.
    public let sequence: Int64
    public let time: Date
    public let kind: JournalKind
    public let operatorID: OperatorID
    public let supervisorID: OperatorID?
    /// The facts as one JSON object (``JournalEvent/payload``), exactly as hashed.
    public let payload: String
    /// The hash of the entry before (64 hex digits; for the first, the genesis value).
    public let previousHash: String
    /// SHA-256 over the previous hash's 32 bytes and this entry's canonical bytes, in hex.
    public let hash: String

    public init(sequence: Int64, time: Date, kind: JournalKind, operatorID: OperatorID, supervisorID: OperatorID?, payload: String,
                previousHash: String, hash: String) {
        self.sequence = sequence
        self.time = time
        self.kind = kind
        self.operatorID = operatorID
        self.supervisorID = supervisorID
        self.payload = payload
        self.previousHash = previousHash
        self.hash = hash
    }
}

/// The first broken link of a journal, as `teller journal verify` names it.
public enum JournalBreak: Hashable, Sendable, CustomStringConvertible {
    /// Entries `missing` are not there: the entry after them is `next` (nil
    /// when they were the newest, seen from the highest number ever given).
    case gap(missing: ClosedRange<Int64>, next: Int64?)
    /// The entry's `prev_hash` is not the hash of the entry before it.
    case previousHashMismatch(sequence: Int64)
    /// The entry's bytes do not give its stored hash: it was changed.
    case hashMismatch(sequence: Int64)
    /// The entry cannot be read as an entry (a kind or id this Teller does not know).
    case unreadable(sequence: Int64, detail: String)
    /// Entries 1 to `missing.upperBound` are not there and no checkpoint
    /// names the hash of entry `missing.upperBound`: removed around retention.
    case uncarried(missing: ClosedRange<Int64>)

    /// The first entry the break concerns.
    public var sequence: Int64 {
        switch self {
        case .gap(let missing, _): missing.lowerBound
        case .previousHashMismatch(let sequence), .hashMismatch(let sequence), .unreadable(let sequence, _): sequence
        case .uncarried(let missing): missing.lowerBound
        }
    }

    /// For technicians (the CLI and the log): which entry, and what is wrong with it.
    public var description: String {
        switch self {
        case .gap(let missing, let next):
            let which = missing.count == 1 ? "entry \(missing.lowerBound) is missing" : "entries \(missing.lowerBound) to \(missing.upperBound) are missing"
            let after = next.map { "entry \($0) follows entry \(missing.lowerBound - 1)" } ?? "the newest entries were removed"
            return "entry \(missing.lowerBound): gap in the sequence: \(which) (\(after))"
        case .previousHashMismatch(let sequence):
            return "entry \(sequence): prev_hash mismatch: it does not name the hash of entry \(sequence - 1)"
        case .hashMismatch(let sequence):
            return "entry \(sequence): hash mismatch: its contents were changed after it was written"
        case .unreadable(let sequence, let detail):
            return "entry \(sequence): unreadable: \(detail)"
        case .uncarried(let missing):
            return "entry \(missing.lowerBound): gap in the sequence: entries \(missing.lowerBound) to \(missing.upperBound) are missing "
                + "and no checkpoint carries the chain over them (entry \(missing.upperBound + 1) is the oldest there)"
        }
    }
}

/// Where a pruned journal's chain begins: retention removed entries 1 to
/// ``pruned``, and the checkpoint entry ``checkpoint`` (hashed into the
/// chain after them) names the hash of the last one removed, which the
/// oldest entry kept names as its previous hash.
public struct JournalCarry: Hashable, Sendable {
    /// The sequence number of the checkpoint entry that carries the chain.
    public let checkpoint: Int64
    /// When the checkpoint was written.
    public let time: Date
    /// Entries 1 to this were removed; the walk starts at the next one.
    public let pruned: Int64

    public init(checkpoint: Int64, time: Date, pruned: Int64) {
        self.checkpoint = checkpoint
        self.time = time
        self.pruned = pruned
    }

    /// The first entry the walk checked.
    public var first: Int64 { pruned + 1 }
}

/// What walking the whole chain found.
/// What checking one day's links of the journal found (`teller journal verify --day`).
public enum JournalDayVerdict: Hashable, Sendable {
    /// The day's `entries`, numbered `sequences`, are in place and linked,
    /// the first to the entry before it.
    case intact(entries: Int, sequences: ClosedRange<Int64>)
    /// No entry was written on that day.
    case noEntries
    /// The first broken link.
    case broken(JournalBreak)
}

public enum JournalVerdict: Hashable, Sendable {
    /// Every entry is in place and chained; `entries` were checked, from
    /// the first entry ever written (`from` nil) or from the oldest entry
    /// retention kept, carried by a checkpoint.
    case intact(entries: Int, from: JournalCarry? = nil)
    /// The first broken link.
    case broken(JournalBreak)
}
